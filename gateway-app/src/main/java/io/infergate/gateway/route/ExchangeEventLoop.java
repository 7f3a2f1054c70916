package io.infergate.gateway.route;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

import io.netty.util.internal.ThreadExecutorMap;
import reactor.netty.Connection;

import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.web.server.ServerWebExchange;

/**
 * The event loop of the connection a request came in on. A request whose step completes on another thread (a Redis
 * client's, for one) goes on from there: its routing, its upstream call and its response then all run away from the
 * connection's loop, and every write crosses threads. Coming back to the loop keeps the rest of the request where
 * Reactor Netty expects it.
 */
final class ExchangeEventLoop {

	private ExchangeEventLoop() {
	}

	/**
	 * {@code stage} as it is when already complete, else completing on the exchange's event loop (or where it
	 * completes, when the exchange has none).
	 */
	static <T> CompletionStage<T> completeOnLoop(CompletionStage<T> stage, ServerWebExchange exchange) {
		CompletableFuture<T> future = stage.toCompletableFuture();
		if (future.isDone()) {
			return future;
		}
		Executor loop = of(exchange);
		return (loop != null) ? future.whenCompleteAsync((result, failure) -> {
		}, loop) : future;
	}

	/**
	 * The event loop running the current thread, or {@code null} when it is not one: the loop of the exchange's
	 * upstream connection when this thread is it, else any Netty event executor this thread belongs to.
	 */
	static Executor current(ServerWebExchange exchange) {
		Connection upstream = exchange.getAttribute(ServerWebExchangeUtils.CLIENT_RESPONSE_CONN_ATTR);
		if (upstream != null && upstream.channel().eventLoop().inEventLoop()) {
			return upstream.channel().eventLoop();
		}
		return ThreadExecutorMap.currentExecutor();
	}

	/** The event loop of the exchange's connection, or {@code null} when it is not a Reactor Netty connection. */
	static Executor of(ServerWebExchange exchange) {
		try {
			Object nativeRequest = ServerHttpRequestDecorator.getNativeRequest(exchange.getRequest());
			return (nativeRequest instanceof Connection connection) ? connection.channel().eventLoop() : null;
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}
}
