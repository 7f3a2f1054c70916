package io.infergate.gateway.examples;

import java.util.UUID;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.gateway.route.InferenceRoute;
import io.infergate.gateway.route.InferenceStep;

/**
 * The example request-path step of {@code docs/architecture.md}: every inference request gets an
 * {@code x-request-id} (the client's own, or a new one), which goes to the model server and comes back on the
 * response. Right after authentication, so a refused caller is not given one.
 */
@Component("request-id")
public class RequestIdStep implements InferenceStep {

	static final String HEADER = "x-request-id";

	@Override
	public int order() {
		return InferenceRoute.AUTHENTICATE + 1;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		String id = exchange.getRequest().getHeaders().getFirst(HEADER);
		if (id == null || id.isBlank()) {
			id = UUID.randomUUID().toString();
		}
		String requestId = id;
		ServerHttpRequest request = exchange.getRequest()
			.mutate()
			.headers((headers) -> headers.set(HEADER, requestId))
			.build();
		exchange.getResponse().getHeaders().set(HEADER, requestId);
		return chain.filter(exchange.mutate().request(request).build());
	}
}
