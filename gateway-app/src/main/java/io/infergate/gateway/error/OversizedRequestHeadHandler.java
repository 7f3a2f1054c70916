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

/**
 * Answers a request whose head is too large, which never reaches Spring, with an OpenAI-shaped JSON error instead of
 * the server's bare status: 431 for headers over {@code server.max-http-request-header-size} or more header fields
 * than {@code infergate.gateway.max-request-headers}, 414 for an over-long request line. The connection is closed
 * after the answer, since the rest of the refused request is never read. Sits right after the HTTP codec.
 */
public final class OversizedRequestHeadHandler extends ChannelInboundHandlerAdapter {

	public static final String NAME = "infergate.oversizedRequestHead";

	private final long maxHeaderBytes;

	private final long maxLineBytes;

	private final int maxHeaderCount;

	private boolean refused;

	public OversizedRequestHeadHandler(long maxHeaderBytes, long maxLineBytes, int maxHeaderCount) {
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
}
