package io.infergate.gateway.filter;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

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

	private final Set<String> forwarded;

	/** @param forwarded names of the headers to forward, in any case */
	public ForwardedHeadersFilter(List<String> forwarded) {
		// compared ignoring case without lower-casing each incoming name: no allocation per header
		TreeSet<String> names = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
		names.addAll(forwarded);
		this.forwarded = names;
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
		HttpHeaders kept = new HttpHeaders();
		input.forEach((name, values) -> {
			if (forwarded.contains(name)) {
				kept.put(name, values);
			}
		});
		return kept;
	}

	@Override
	public boolean supports(Type type) {
		return type == Type.REQUEST;
	}
}
