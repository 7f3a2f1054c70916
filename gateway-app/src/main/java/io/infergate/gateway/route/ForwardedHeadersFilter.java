package io.infergate.gateway.route;

import java.util.List;
import java.util.Locale;

import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;


/**
 * A model server receives only the request headers it needs ({@code infergate.gateway.forwarded-headers}: the
 * body's type and length, what the client accepts, its request id and trace context); every other header the
 * client sent, hop-by-hop headers, cookies and credentials among them, stays at the gateway. Applied to inference
 * requests only, first of all the headers filters, so that every later one works on the few headers that are left
 * ({@link InferenceHeadersFilters} leaves out the ones that would find nothing to do), and before
 * {@link UpstreamCredentialHeadersFilter} adds a pool's own credential.
 */
public class ForwardedHeadersFilter implements HttpHeadersFilter, Ordered {

	/** First of the headers filters. */
	public static final int ORDER = Ordered.HIGHEST_PRECEDENCE;

	/** Lower case, without duplicates. */
	private final String[] forwarded;

	/** @param forwarded names of the headers to forward, in any case */
	public ForwardedHeadersFilter(List<String> forwarded) {
		this.forwarded = forwarded.stream().map((name) -> name.toLowerCase(Locale.ROOT)).distinct().toArray(String[]::new);
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

	@Override
	public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
		if (InferenceContext.parsed(exchange) == null) {
			return input;
		}
		// a look-up per allowed name, not a pass over the client's headers: iterating Spring's HttpHeaders builds a
		// case-insensitive set of every name first
		HttpHeaders kept = new HttpHeaders();
		for (String name : forwarded) {
			List<String> values = input.get(name);
			if (values != null) {
				kept.put(name, values);
			}
		}
		return kept;
	}

	@Override
	public boolean supports(Type type) {
		return type == Type.REQUEST;
	}
}
