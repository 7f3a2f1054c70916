package io.infergate.routing.metrics;

import java.io.IOException;
import java.net.URI;
import java.util.Arrays;
import java.util.function.BiConsumer;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.ssl.SslContext;

/**
 * One endpoint's keep-alive HTTP/1.1 connection for scrapes: a {@code GET} of the exposition whose body is
 * collected into a byte array the scraper lends, reused across scrapes. The connection is opened on the first
 * scrape and again after the server or a failure closed it.
 * <p>
 * Everything runs on the client's single event loop, the thread that also schedules the scrapes, so an exchange
 * needs no locking; {@link #get} and {@link #abort} are called on that loop. After {@link #abort}, nothing more is
 * written into the lent buffer: its channel is closed and its handler no longer belongs to the exchange.
 */
final class ScrapeConnection {

	private static final IOException CLOSED_EARLY = new IOException(
			"the connection closed before the response ended", null) {

		@Override
		public synchronized Throwable fillInStackTrace() {
			return this;
		}
	};

	private final Bootstrap bootstrap;

	private final URI uri;

	private final String pathAndQuery;

	private final HttpHeaders requestHeaders;

	private final SslContext ssl;

	private Channel channel;

	private Exchange exchange;

	/**
	 * @param bootstrap the client's bootstrap, bound to its event loop
	 * @param uri the exposition's URI
	 * @param connectTimeoutMillis the longest a connection may take to open
	 * @param ssl the TLS context, used when the URI's scheme is {@code https}
	 */
	ScrapeConnection(Bootstrap bootstrap, URI uri, int connectTimeoutMillis, SslContext ssl) {
		this.uri = uri;
		this.ssl = "https".equalsIgnoreCase(uri.getScheme()) ? ssl : null;
		this.bootstrap = bootstrap.clone()
			.option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis)
			.remoteAddress(uri.getHost(), port(uri));
		String path = (uri.getRawPath() == null || uri.getRawPath().isEmpty()) ? "/" : uri.getRawPath();
		this.pathAndQuery = (uri.getRawQuery() != null) ? path + "?" + uri.getRawQuery() : path;
		HttpHeaders headers = new DefaultHttpHeaders();
		headers.set(HttpHeaderNames.HOST, uri.getHost() + ":" + port(uri));
		headers.set(HttpHeaderNames.ACCEPT, "text/plain;version=0.0.4");
		this.requestHeaders = headers;
	}

	private static int port(URI uri) {
		if (uri.getPort() != -1) {
			return uri.getPort();
		}
		return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
	}

	EventLoop eventLoop() {
		return (EventLoop) bootstrap.config().group().next();
	}

	/**
	 * Starts a scrape. {@code onDone} is called once, on the event loop, with the body of a 200 response (in
	 * {@code buffer} or a larger array that replaced it) or with the failure: an
	 * {@link ScrapeFailure.HttpStatusException} for another status, an {@link ScrapeFailure.BodyTooLargeException}
	 * past {@code maxBytes}, or the I/O failure.
	 */
	void get(byte[] buffer, int maxBytes, BiConsumer<ExpositionBody, Throwable> onDone) {
		Exchange started = new Exchange(buffer, maxBytes, onDone);
		exchange = started;
		if (channel != null && channel.isActive()) {
			send(channel, started);
			return;
		}
		closeChannel();
		ChannelFuture connecting = bootstrap.handler(new ChannelInitializer<Channel>() {

			@Override
			protected void initChannel(Channel channel) {
				if (ssl != null) {
					channel.pipeline().addLast(ssl.newHandler(channel.alloc(), uri.getHost(), port(uri)));
				}
				channel.pipeline().addLast(new HttpClientCodec(), new ResponseReader());
			}
		}).connect();
		channel = connecting.channel();
		connecting.addListener((future) -> {
			if (exchange != started) {
				return; // aborted while connecting
			}
			if (future.isSuccess()) {
				send(connecting.channel(), started);
			}
			else {
				fail(future.cause());
			}
		});
	}

	private void send(Channel target, Exchange started) {
		target.writeAndFlush(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, pathAndQuery,
				Unpooled.EMPTY_BUFFER, requestHeaders, EmptyHttpHeaders.INSTANCE))
			.addListener((future) -> {
				if (!future.isSuccess() && exchange == started) {
					fail(future.cause());
				}
			});
	}

	/** Ends the scrape in flight, if any, with {@code failure}, and closes the connection. */
	void abort(Throwable failure) {
		fail(failure);
	}

	/** Closes the connection; a scrape in flight is dropped without a report. */
	void close() {
		exchange = null;
		closeChannel();
	}

	private void fail(Throwable failure) {
		Exchange failed = exchange;
		exchange = null;
		closeChannel();
		if (failed != null) {
			failed.onDone.accept(null, failure);
		}
	}

	private void succeed(ExpositionBody body, boolean keepAlive) {
		Exchange done = exchange;
		exchange = null;
		if (!keepAlive) {
			closeChannel();
		}
		if (done != null) {
			done.onDone.accept(body, null);
		}
	}

	private void closeChannel() {
		if (channel != null) {
			channel.close();
			channel = null;
		}
	}

	/** One scrape: the lent buffer, what has been read into it, and whom to tell. */
	private static final class Exchange {

		final int maxBytes;

		final BiConsumer<ExpositionBody, Throwable> onDone;

		byte[] buffer;

		int length;

		int status;

		boolean keepAlive;

		Exchange(byte[] buffer, int maxBytes, BiConsumer<ExpositionBody, Throwable> onDone) {
			this.buffer = buffer;
			this.maxBytes = maxBytes;
			this.onDone = onDone;
		}

		/** Appends a chunk of a 200 body; false once the body passes the limit. */
		boolean append(ByteBuf content) {
			int remaining = content.readableBytes();
			if (remaining > maxBytes - length) {
				return false;
			}
			if (length + remaining > buffer.length) {
				buffer = Arrays.copyOf(buffer, Math.min(maxBytes, Math.max(length + remaining, 2 * buffer.length)));
			}
			content.readBytes(buffer, length, remaining);
			length += remaining;
			return true;
		}
	}

	/** Reads responses on one channel into the exchange in flight. */
	private final class ResponseReader extends SimpleChannelInboundHandler<HttpObject> {

		@Override
		protected void channelRead0(ChannelHandlerContext context, HttpObject message) {
			Exchange current = exchange;
			if (current == null || context.channel() != channel) {
				return; // an aborted exchange's late bytes
			}
			if (message.decoderResult().isFailure()) {
				fail(new IOException("malformed HTTP response: " + message.decoderResult().cause().getMessage()));
				return;
			}
			if (message instanceof HttpResponse response) {
				current.status = response.status().code();
				current.keepAlive = HttpUtil.isKeepAlive(response);
			}
			if (message instanceof HttpContent content && current.status == 200
					&& !current.append(content.content())) {
				fail(new ScrapeFailure.BodyTooLargeException(current.maxBytes));
				return;
			}
			if (message instanceof LastHttpContent) {
				if (current.status == 200) {
					succeed(new ExpositionBody(current.buffer, current.length), current.keepAlive);
				}
				else {
					// the body was drained, so the connection stays usable
					if (!current.keepAlive) {
						closeChannel();
					}
					Exchange done = exchange;
					exchange = null;
					done.onDone.accept(null, new ScrapeFailure.HttpStatusException(current.status));
				}
			}
		}

		@Override
		public void channelInactive(ChannelHandlerContext context) {
			if (context.channel() == channel) {
				channel = null;
				if (exchange != null) {
					fail(CLOSED_EARLY);
				}
			}
		}

		@Override
		public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
			if (context.channel() == channel) {
				fail(cause);
			}
			else {
				context.close();
			}
		}
	}
}
