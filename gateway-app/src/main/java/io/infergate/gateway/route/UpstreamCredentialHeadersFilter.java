package io.infergate.gateway.route;

import java.util.function.Function;

import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.routing.model.ModelRoute;

/**
 * The headers sent to a model server never carry the client's credential ({@code Authorization}, {@code api-key}),
 * whether or not authentication is on; a pool with an {@code upstream-api-key} gets
 * {@code Authorization: Bearer <its key>} instead. Applied to every attempt, after the pool is known; the key is
 * read then, so a configuration reload applies to the next attempt.
 */
public class UpstreamCredentialHeadersFilter implements HttpHeadersFilter, Ordered {

	private final Function<String, String> upstreamApiKeys;

	/** @param upstreamApiKeys a pool's upstream credential by its name, {@code null} when it has none */
	public UpstreamCredentialHeadersFilter(Function<String, String> upstreamApiKeys) {
		this.upstreamApiKeys = upstreamApiKeys;
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	@Override
	public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
		InferenceContext context = InferenceContext.find(exchange);
		ModelRoute route = (context != null) ? context.route() : null;
		String key = (route != null) ? upstreamApiKeys.apply(route.pool()) : null;
		String authorization = (key != null) ? "Bearer " + key : null;
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
