package io.infergate.gateway.filter;

import java.net.URI;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.gateway.model.ModelRoute;
import io.infergate.routing.request.InfergateAttributes;

/**
 * Points an inference request at its pool, {@code lb://<pool>}, after the route has set its own URL and before
 * the load balancer reads it: body-based routing with one route for every model.
 */
public class PoolRouteFilter implements GlobalFilter, Ordered {

	@Override
	public int getOrder() {
		return RequestPathOrder.POOL_ROUTE;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		ModelRoute route = exchange.getAttribute(InfergateAttributes.MODEL_ROUTE);
		if (route != null) {
			URI target = URI.create("lb://" + route.pool() + exchange.getRequest().getPath().value());
			exchange.getAttributes().put(ServerWebExchangeUtils.GATEWAY_REQUEST_URL_ATTR, target);
		}
		return chain.filter(exchange);
	}
}
