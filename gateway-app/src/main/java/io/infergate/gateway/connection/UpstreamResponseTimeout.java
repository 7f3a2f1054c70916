package io.infergate.gateway.connection;

import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;

import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.cloud.gateway.config.HttpClientProperties;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

/**
 * The response timeout ({@code spring.cloud.gateway.server.webflux.httpclient.response-timeout}) of one connection to
 * a model server: from the writing of a request's head until the response's head arrives. When it runs out, the
 * request fails with the 504 {@link ResponseStatusException} Spring Cloud Gateway's own timeout gives, and the
 * connection is closed. Once the response head is in, nothing is timed, so a long stream is never cut.
 * <p>
 * Spring Cloud Gateway times the same span with a Reactor {@code timeout} on every proxied call: a timer scheduled on
 * a shared scheduler's thread and cancelled when the headers arrive, about 5% of the gateway's CPU samples under
 * load. Here the deadline is a field of the connection, and one check scheduled on the connection's own event loop
 * reads it, as {@link ClientConnectionDeadlines} does for client connections: a kept-alive connection that answers
 * in time moves the deadline and schedules nothing.
 */
public final class UpstreamResponseTimeout extends ChannelDuplexHandler {

	public static final String NAME = "infergate.upstreamResponseTimeout";

	private final long timeoutNanos;

	private final String reason;

	/** Whether a request was sent and its response head has not arrived. */
	private boolean armed;

	/** When the request fails unless the response head arrives first (on the event loop's clock). */
	private long deadlineNanos;

	/** The pending check of the deadline, or {@code null}. */
	private Future<?> check;

	/**
	 * The timeout this handler keeps in place of Spring Cloud Gateway's, or {@code null} when there is none or it
	 * stays Spring Cloud Gateway's: with {@code server.http2.enabled} the client may speak HTTP/2 to a model server,
	 * whose requests and responses this handler on the connection does not see.
	 */
	public static Duration replacing(HttpClientProperties client, ServerProperties server) {
		Duration timeout = client.getResponseTimeout();
		if (timeout == null || timeout.isNegative() || timeout.isZero() || server.getHttp2().isEnabled()) {
			return null;
		}
		return timeout;
	}

	public UpstreamResponseTimeout(Duration timeout) {
		this.timeoutNanos = timeout.toNanos();
		this.reason = "no response headers within " + timeout.toMillis() + " ms";
	}

	@Override
	public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
		if (msg instanceof HttpRequest) {
			arm(ctx);
		}
		super.write(ctx, msg, promise);
	}

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
		if (msg instanceof HttpResponse response && response.status().codeClass() != HttpStatusClass.INFORMATIONAL) {
			armed = false;
		}
		super.channelRead(ctx, msg);
	}

	@Override
	public void channelInactive(ChannelHandlerContext ctx) throws Exception {
		armed = false;
		if (check != null) {
			check.cancel(false);
			check = null;
		}
		super.channelInactive(ctx);
	}

	private void arm(ChannelHandlerContext ctx) {
		long now = ctx.executor().ticker().nanoTime();
		armed = true;
		deadlineNanos = now + timeoutNanos;
		// Every request has the same timeout, so a pending check is never due after the new deadline.
		if (check == null) {
			scheduleCheck(ctx, timeoutNanos);
		}
	}

	private void scheduleCheck(ChannelHandlerContext ctx, long delayNanos) {
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
			scheduleCheck(ctx, left);
			return;
		}
		armed = false;
		ctx.fireExceptionCaught(new ResponseStatusException(HttpStatus.GATEWAY_TIMEOUT, reason));
		ctx.close();
	}
}
