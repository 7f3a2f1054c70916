package io.infergate.gateway.error;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;

import org.springframework.http.MediaType;

/**
 * Answers a request whose head Spring could not take with an OpenAI-shaped JSON error, instead of the server's bare
 * status or a dropped connection: 431 for headers over {@code server.max-http-request-header-size} or more header
 * fields than {@code infergate.gateway.max-request-headers}, 414 for an over-long request line, and 400 for a
 * {@code Content-Type} that is not a media type (Spring parses it while creating the exchange, and a value such as
 * {@code "a/b} threw there, before any error handler, so the connection closed without an answer). The connection is
 * closed after the answer, since the rest of the refused request is never read. Sits right after the HTTP codec.
 */
public final class RefusedRequestHeadHandler extends ChannelInboundHandlerAdapter {

	public static final String NAME = "infergate.refusedRequestHead";

	private final long maxHeaderBytes;

	private final long maxLineBytes;

	private final int maxHeaderCount;

	private boolean refused;

	public RefusedRequestHeadHandler(long maxHeaderBytes, long maxLineBytes, int maxHeaderCount) {
		this.maxHeaderBytes = maxHeaderBytes;
		this.maxLineBytes = maxLineBytes;
		this.maxHeaderCount = maxHeaderCount;
	}

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) {
		if (refused) {
			ReferenceCountUtil.release(msg);
			return;
		}
		if (msg instanceof HttpRequest request) {
			OpenAiError error = null;
			if (request.decoderResult().isFailure()
					&& request.decoderResult().cause() instanceof TooLongFrameException tooLong) {
				error = (tooLong instanceof TooLongHttpLineException) ? OpenAiError.uriTooLong(maxLineBytes)
						: (tooLong instanceof TooLongHttpHeaderException) ? OpenAiError.headersTooLarge(maxHeaderBytes)
								: null;
			}
			else if (request.headers().size() > maxHeaderCount) {
				error = OpenAiError.tooManyHeaders(request.headers().size(), maxHeaderCount);
			}
			else {
				error = contentTypeError(request.headers().get(HttpHeaderNames.CONTENT_TYPE));
			}
			if (error != null) {
				refused = true;
				ReferenceCountUtil.release(msg);
				byte[] body = error.toJson().getBytes(StandardCharsets.UTF_8);
				FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
						HttpResponseStatus.valueOf(error.status().value()), Unpooled.wrappedBuffer(body));
				response.headers()
					.set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
					.set(OpenAiErrorResponses.NOSNIFF_HEADER, "nosniff")
					.setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
					.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
				ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
				return;
			}
		}
		ctx.fireChannelRead(msg);
	}

	/** The error for a {@code Content-Type} Spring cannot parse, or {@code null}; parsed values are cached. */
	private static OpenAiError contentTypeError(String contentType) {
		if (contentType == null) {
			return null;
		}
		try {
			MediaType.parseMediaType(contentType);
			return null;
		}
		catch (RuntimeException ex) {
			return OpenAiError.invalidContentType(contentType);
		}
	}
}
