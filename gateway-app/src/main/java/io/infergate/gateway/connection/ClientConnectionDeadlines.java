package io.infergate.gateway.connection;

import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.infergate.gateway.logging.RepeatedLines;

/**
 * Closes a client connection that holds the gateway without sending a request: one whose request head is not
 * complete within the header timeout (counted from the connection's opening, or from the end of the previous
 * response on a kept-alive connection), or whose body is not complete within the body timeout of its head. While a
 * request is being answered no deadline runs, so a long stream is never cut. Also refuses connections beyond the
 * maximum. One per connection, right after the HTTP codec; it sees request parts as they are decoded and response
 * parts as they are encoded.
 */
public final class ClientConnectionDeadlines extends ChannelDuplexHandler {

	public static final String NAME = "infergate.clientConnectionDeadlines";

	private static final Log logger = LogFactory.getLog(ClientConnectionDeadlines.class);

	private static final RepeatedLines repeated = new RepeatedLines();

	private final long headerTimeoutNanos;

	private final long bodyTimeoutNanos;

	private final AtomicInteger openConnections;

	private final int maxConnections;

	private boolean opened;

	private boolean counted;

	/** Requests whose head arrived and whose response has not ended. */
	private int requestsInProgress;

	/** Whether the next response end belongs to an informational (1xx) response. */
	private boolean informational;

	private Future<?> deadline;

	/** @param openConnections the count of open connections, shared by every connection of the server */
	public ClientConnectionDeadlines(ClientConnectionProperties properties, AtomicInteger openConnections) {
		this.headerTimeoutNanos = properties.getHeaderTimeout().toNanos();
		this.bodyTimeoutNanos = properties.getBodyTimeout().toNanos();
		this.maxConnections = properties.getMaxConnections();
		this.openConnections = openConnections;
	}

	@Override
	public void handlerAdded(ChannelHandlerContext ctx) {
		if (ctx.channel().isActive()) {
			opened(ctx);
		}
	}

	@Override
	public void channelActive(ChannelHandlerContext ctx) throws Exception {
		opened(ctx);
		super.channelActive(ctx);
	}

	private void opened(ChannelHandlerContext ctx) {
		if (opened) {
			return;
		}
		opened = true;
		if (openConnections.incrementAndGet() > maxConnections) {
			openConnections.decrementAndGet();
			log("max-connections", "Refused a client connection: " + maxConnections
					+ " are open (infergate.gateway.client.max-connections)");
			ctx.close();
			return;
		}
		counted = true;
		arm(ctx, headerTimeoutNanos, "header-timeout");
	}

	@Override
	public void channelInactive(ChannelHandlerContext ctx) throws Exception {
		disarm();
		if (counted) {
			counted = false;
			openConnections.decrementAndGet();
		}
		super.channelInactive(ctx);
	}

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
		if (msg instanceof HttpRequest) {
			requestsInProgress++;
			disarm();
			if (!(msg instanceof LastHttpContent)) {
				arm(ctx, bodyTimeoutNanos, "body-timeout");
			}
		}
		else if (msg instanceof LastHttpContent) {
			disarm();
		}
		super.channelRead(ctx, msg);
	}

	@Override
	public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
		if (msg instanceof HttpResponse response && response.status().codeClass() == HttpStatusClass.INFORMATIONAL) {
			informational = true;
		}
		if (msg instanceof LastHttpContent) {
			if (informational) {
				informational = false;
			}
			else {
				promise = promise.unvoid();
				promise.addListener((future) -> responseEnded(ctx));
			}
		}
		super.write(ctx, msg, promise);
	}

	private void responseEnded(ChannelHandlerContext ctx) {
		requestsInProgress = Math.max(0, requestsInProgress - 1);
		if (requestsInProgress == 0 && ctx.channel().isActive()) {
			arm(ctx, headerTimeoutNanos, "header-timeout");
		}
	}

	private void arm(ChannelHandlerContext ctx, long timeoutNanos, String kind) {
		disarm();
		deadline = ctx.executor().schedule(() -> {
			deadline = null;
			log(kind, "Closed a client connection from " + ctx.channel().remoteAddress() + ": "
					+ (kind.equals("header-timeout") ? "no complete request head" : "no complete request body")
					+ " within " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms");
			ctx.close();
		}, timeoutNanos, TimeUnit.NANOSECONDS);
	}

	private void disarm() {
		if (deadline != null) {
			deadline.cancel(false);
			deadline = null;
		}
	}

	private static void log(String kind, String message) {
		if (logger.isInfoEnabled()) {
			String line = repeated.admit(kind, message);
			if (line != null) {
				logger.info(line);
			}
		}
	}
}
