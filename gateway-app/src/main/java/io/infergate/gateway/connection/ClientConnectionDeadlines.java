package io.infergate.gateway.connection;

import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
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
 * <p>
 * Two more things happen at the end of a response. A connection closed while a request body is still coming (an
 * early 413, say) is closed gently: the response is sent, then the gateway stops writing and reads and drops
 * whatever the client still sends, for up to {@value #LINGER_MILLIS} ms, before closing. Closed at once, the socket
 * would reset the connection over the unread bytes and the client could lose the response. And the next request is
 * asked for: the server reads on demand, and after a pipelined request answered at once it may otherwise never read
 * again.
 */
public final class ClientConnectionDeadlines extends ChannelDuplexHandler {

	public static final String NAME = "infergate.clientConnectionDeadlines";

	private static final Log logger = LogFactory.getLog(ClientConnectionDeadlines.class);

	private static final RepeatedLines repeated = new RepeatedLines();

	/** Longest wait for the rest of an unread request body before a connection is closed. */
	static final long LINGER_MILLIS = 2_000;

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

	/** Whether a request's head has arrived and the end of its body has not. */
	private boolean bodyIncomplete;

	/** Whether the connection is closing: the response is out, the rest of the request is being dropped. */
	private boolean lingering;

	/** The promise of the close that lingering postponed. */
	private ChannelPromise lingerPromise;

	private Future<?> lingerTimer;

	/** Whether a deadline runs. */
	private boolean armed;

	/** When the connection is closed unless a request part arrives first (on the event loop's clock). */
	private long deadlineNanos;

	private long deadlineTimeoutNanos;

	private String deadlineKind;

	/** The pending check of the deadline, or {@code null}; it runs at {@link #checkAtNanos}. */
	private Future<?> check;

	private long checkAtNanos;

	/** @param openConnections the count of open connections, shared by every connection of the server */
	public ClientConnectionDeadlines(ClientConnectionProperties properties, AtomicInteger openConnections) {
		this.headerTimeoutNanos = properties.headerTimeout().toNanos();
		this.bodyTimeoutNanos = properties.bodyTimeout().toNanos();
		this.maxConnections = properties.maxConnections();
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
		cancel(check);
		check = null;
		cancel(lingerTimer);
		lingerTimer = null;
		if (lingerPromise != null) {
			// closed by the client's end of the stream, as the postponed close would have
			lingerPromise.trySuccess();
		}
		if (counted) {
			counted = false;
			openConnections.decrementAndGet();
		}
		super.channelInactive(ctx);
	}

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
		if (lingering) {
			ReferenceCountUtil.release(msg);
			ctx.read();
			return;
		}
		if (msg instanceof HttpRequest) {
			requestsInProgress++;
			disarm();
			bodyIncomplete = !(msg instanceof LastHttpContent);
			if (bodyIncomplete) {
				arm(ctx, bodyTimeoutNanos, "body-timeout");
			}
		}
		else if (msg instanceof LastHttpContent) {
			bodyIncomplete = false;
			if (requestsInProgress > 0) {
				disarm(); // the body's deadline
			}
			// else the response ended before the body's end was read (a request answered at once, on the event
			// loop that reads it): the deadline armed is the next request head's, and it stays
		}
		super.channelRead(ctx, msg);
	}

	/** Closes gently while a request body is still coming; see the class comment. */
	@Override
	public void close(ChannelHandlerContext ctx, ChannelPromise promise) throws Exception {
		if (!bodyIncomplete || lingering || !(ctx.channel() instanceof DuplexChannel channel)) {
			super.close(ctx, promise);
			return;
		}
		lingering = true;
		lingerPromise = promise;
		disarm();
		lingerTimer = ctx.executor().schedule(() -> {
			lingerTimer = null;
			ctx.close(promise);
		}, LINGER_MILLIS, TimeUnit.MILLISECONDS);
		channel.shutdownOutput();
		ctx.read();
	}

	@Override
	public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
		if (lingering && event instanceof ChannelInputShutdownEvent) {
			// the client has sent everything: nothing is left to reset the connection over
			cancel(lingerTimer);
			lingerTimer = null;
			ctx.close(lingerPromise);
			return;
		}
		super.userEventTriggered(ctx, event);
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
		if (requestsInProgress == 0 && ctx.channel().isActive() && !lingering) {
			arm(ctx, headerTimeoutNanos, "header-timeout");
			ctx.read();
		}
	}

	/**
	 * Sets the deadline. A kept-alive connection arms and disarms it for every request, so it is a field that one
	 * scheduled check reads, not a timer scheduled and cancelled each time: the check finds the deadline moved and
	 * waits for the rest of it, or finds none and ends.
	 */
	private void arm(ChannelHandlerContext ctx, long timeoutNanos, String kind) {
		long now = ctx.executor().ticker().nanoTime();
		armed = true;
		deadlineNanos = now + timeoutNanos;
		deadlineTimeoutNanos = timeoutNanos;
		deadlineKind = kind;
		if (check != null && checkAtNanos - deadlineNanos > 0) {
			cancel(check); // due after the new deadline
			check = null;
		}
		if (check == null) {
			scheduleCheck(ctx, timeoutNanos, now);
		}
	}

	private void scheduleCheck(ChannelHandlerContext ctx, long delayNanos, long now) {
		checkAtNanos = now + delayNanos;
		check = ctx.executor().schedule(() -> checkDeadline(ctx), delayNanos, TimeUnit.NANOSECONDS);
	}

	private void checkDeadline(ChannelHandlerContext ctx) {
		check = null;
		if (!armed) {
			return;
		}
		long now = ctx.executor().ticker().nanoTime();
		long left = deadlineNanos - now;
		if (left > 0) {
			scheduleCheck(ctx, left, now);
			return;
		}
		armed = false;
		log(deadlineKind, "Closed a client connection from " + ctx.channel().remoteAddress() + ": "
				+ (deadlineKind.equals("header-timeout") ? "no complete request head" : "no complete request body")
				+ " within " + TimeUnit.NANOSECONDS.toMillis(deadlineTimeoutNanos) + " ms");
		ctx.close();
	}

	private void disarm() {
		armed = false;
	}

	private static void cancel(Future<?> timer) {
		if (timer != null) {
			timer.cancel(false);
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
