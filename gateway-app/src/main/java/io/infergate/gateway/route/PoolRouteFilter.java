package io.infergate.gateway.route;

import java.net.URI;
import java.util.EnumMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.routing.model.ModelRoute;
import io.infergate.routing.openai.InferenceApi;

/**
 * Points an inference request at its pool, {@code lb://<pool>/<API path>}, before the load balancer reads it:
 * body-based routing with one route for every model. The route's own URL is never used, so Spring Cloud Gateway's
 * filter that would build it per request is off ({@code global-filter.route-to-request-url.enabled: false}). The
 * route takes exactly the API paths, so there are a few such URLs per pool; each is parsed once.
 */
public class PoolRouteFilter implements GatewayFilter {

	private final EnumMap<InferenceApi, ConcurrentMap<String, URI>> targets = new EnumMap<>(InferenceApi.class);

	public PoolRouteFilter() {
		for (InferenceApi api : InferenceApi.values()) {
			targets.put(api, new ConcurrentHashMap<>());
		}
	}


	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		InferenceContext context = InferenceContext.find(exchange);
		exchange.getAttributes()
			.put(ServerWebExchangeUtils.GATEWAY_REQUEST_URL_ATTR, target(context.route().pool(), context.api()));
		return chain.filter(exchange);
	}

	private URI target(String pool, InferenceApi api) {
		ConcurrentMap<String, URI> byPool = targets.get(api);
		URI target = byPool.get(pool);
		return (target != null) ? target : byPool.computeIfAbsent(pool, (name) -> URI.create("lb://" + name + api.path()));
	}
}
