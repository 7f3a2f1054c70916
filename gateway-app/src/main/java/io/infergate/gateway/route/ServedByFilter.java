package io.infergate.gateway.route;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.routing.model.ModelRoute;
import io.infergate.routing.dispatch.Dispatch;

/**
 * Says what served a dispatched request, on its response: {@code x-infergate-pool}, {@code x-infergate-model} (the
 * target model), {@code x-infergate-fallbacks} (fallbacks taken) and, once an endpoint answered,
 * {@code x-infergate-endpoint} ({@code host:port}). The headers are written as the response commits, from the last
 * model and endpoint tried, so a retried or fallen-back request names what finally answered. A request that no step
 * dispatched (a 404 model, a limit's 429) gets none.
 */
public class ServedByFilter implements GatewayFilter {

	public static final String ENDPOINT_HEADER = "x-infergate-endpoint";

	public static final String POOL_HEADER = "x-infergate-pool";

	public static final String MODEL_HEADER = "x-infergate-model";

	public static final String FALLBACKS_HEADER = "x-infergate-fallbacks";



	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		InferenceContext context = InferenceContext.of(exchange);
		exchange.getResponse().beforeCommit(() -> {
			describe(exchange, context);
			return Mono.empty();
		});
		return chain.filter(exchange);
	}

	private static void describe(ServerWebExchange exchange, InferenceContext context) {
		Dispatch dispatch = context.dispatch();
		ModelRoute route = context.route();
		if (dispatch == null || route == null) {
			return;
		}
		HttpHeaders headers = exchange.getResponse().getHeaders();
		headers.set(POOL_HEADER, route.pool());
		headers.set(MODEL_HEADER, route.targetModel());
		ModelFallbacks fallbacks = context.fallbacks();
		headers.set(FALLBACKS_HEADER, Integer.toString((fallbacks != null) ? fallbacks.taken() : 0));
		if (exchange.getAttribute(ServerWebExchangeUtils.CLIENT_RESPONSE_ATTR) != null
				&& dispatch.lastEndpoint() != null) {
			headers.set(ENDPOINT_HEADER, dispatch.lastEndpoint().toString());
		}
	}
}
