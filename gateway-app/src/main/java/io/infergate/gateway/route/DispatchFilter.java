package io.infergate.gateway.route;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.routing.dispatch.Dispatch;
import io.infergate.routing.engine.InferenceEngine;
import io.infergate.routing.request.InferenceRequest;

/**
 * Opens the request's {@link Dispatch}, which the load balancer fills in and the in-flight counts hang on, and
 * decorates the response with a final error event for an upstream that fails mid-stream.
 * <p>
 * It is the last step outside the response writer, so the chain it wraps completes only once the response body
 * has been written, and the in-flight count it releases in {@code doFinally} covers the whole stream, an error,
 * or a client cancel. A request that falls back to another model gets a fresh dispatch for it.
 */
public class DispatchFilter implements GatewayFilter {

	private final InferenceEngine engine;

	private final PoolTimeouts timeouts;

	public DispatchFilter(InferenceEngine engine, PoolTimeouts timeouts) {
		this.engine = engine;
		this.timeouts = timeouts;
	}


	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		InferenceContext context = InferenceContext.find(exchange);
		InferenceRequest request = context.request();
		Dispatch dispatch = engine.dispatch(request);
		context.dispatch(exchange, dispatch);
		InferenceResponse response = new InferenceResponse(exchange.getResponse(), dispatch, context.relayed(), context.usage(),
				timeouts.streamIdle(request.pool()));
		return chain.filter(exchange.mutate().response(response).build()).doFinally((signal) -> dispatch.finish());
	}
}
