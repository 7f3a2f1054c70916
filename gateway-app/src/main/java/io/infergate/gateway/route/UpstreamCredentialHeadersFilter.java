package io.infergate.gateway.route;

import java.util.Map;

import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.routing.model.ModelRoute;

/**
 * The headers sent to a model server never carry the client's credential ({@code Authorization}, {@code api-key}),
 * whether or not authentication is on; a pool with an {@code upstream-api-key} gets
 * {@code Authorization: Bearer <its key>} instead. Applied to every attempt, after the pool is known.
 */
public class UpstreamCredentialHeadersFilter implements HttpHeadersFilter, Ordered {

	private final Map<String, String> authorizationByPool;

	/** @param upstreamApiKeys each pool's upstream credential, for the pools that have one */
	public UpstreamCredentialHeadersFilter(Map<String, String> upstreamApiKeys) {
		this.authorizationByPool = upstreamApiKeys.entrySet()
			.stream()
			.collect(java.util.stream.Collectors.toUnmodifiableMap(Map.Entry::getKey, (e) -> "Bearer " + e.getValue()));
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	@Override
	public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
		InferenceContext context = InferenceContext.find(exchange);
		ModelRoute route = (context != null) ? context.route() : null;
		String authorization = (route != null) ? authorizationByPool.get(route.pool()) : null;
		if (authorization == null && !input.containsHeader(HttpHeaders.AUTHORIZATION)
				&& !input.containsHeader(AuthenticateFilter.API_KEY_HEADER)) {
			return input;
		}
		HttpHeaders filtered = new HttpHeaders();
		filtered.putAll(input);
		filtered.remove(HttpHeaders.AUTHORIZATION);
		filtered.remove(AuthenticateFilter.API_KEY_HEADER);
		if (authorization != null) {
			filtered.set(HttpHeaders.AUTHORIZATION, authorization);
		}
		return filtered;
	}

	@Override
	public boolean supports(Type type) {
		return type == Type.REQUEST;
	}
}
