package io.infergate.gateway.route;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.cloud.gateway.filter.headers.GRPCRequestHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.RemoveForwardedHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.RemoveHopByHopHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.RemoveXForwardedHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.TransferEncodingNormalizationHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.XForwardedHeadersFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;


/**
 * Spring Cloud Gateway's headers filters, at the cost an inference request needs. Each of them copies every header
 * of every request (and the hop-by-hop filter every response's too), lower-casing each name on the way: in a profile
 * under load they held 4% (the request-only ones) and 7% (hop-by-hop removal) of the gateway's CPU samples. For an
 * inference request:
 * <ul>
 * <li>the request-only ones, which remove or add {@code Forwarded} and {@code X-Forwarded-*}, normalize
 * {@code Transfer-Encoding} against {@code Content-Length} and add gRPC's {@code TE}, are skipped: the allow-list
 * ({@link ForwardedHeadersFilter}, which runs first) leaves none of those headers, and the body's length is known;</li>
 * <li>hop-by-hop removal removes the same headers (its configured ones, and those the {@code Connection} header
 * names) from the request and the response, looking each of them up instead of iterating the headers.</li>
 * </ul>
 * Every other request gets Spring Cloud Gateway's filters unchanged.
 * <p>
 * Should {@code infergate.gateway.forwarded-headers} name a {@code Forwarded} or {@code X-Forwarded-*} header,
 * the request-only filters run for inference requests too, so such a header reaches the model server removed or set
 * as Spring Cloud Gateway decides.
 */
public final class InferenceHeadersFilters implements BeanPostProcessor {

	private static final Set<Class<?>> REQUEST_ONLY_FILTERS = Set.of(RemoveForwardedHeadersFilter.class,
			RemoveXForwardedHeadersFilter.class,
			org.springframework.cloud.gateway.filter.headers.ForwardedHeadersFilter.class,
			XForwardedHeadersFilter.class, TransferEncodingNormalizationHeadersFilter.class,
			GRPCRequestHeadersFilter.class);

	private final boolean skipRequestOnly;

	/** @param forwardedHeaders the allow-list, {@code infergate.gateway.forwarded-headers} */
	public InferenceHeadersFilters(List<String> forwardedHeaders) {
		this.skipRequestOnly = forwardedHeaders.stream().noneMatch(InferenceHeadersFilters::isProxyHeader);
	}

	/** {@code Forwarded}, or an {@code X-Forwarded-*} header. */
	private static boolean isProxyHeader(String name) {
		String lower = name.toLowerCase(Locale.ROOT);
		return lower.equals("forwarded") || lower.startsWith("x-forwarded-");
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (skipRequestOnly && REQUEST_ONLY_FILTERS.contains(bean.getClass())) {
			return new SkippedForInferenceRequests((HttpHeadersFilter) bean);
		}
		if (bean.getClass() == RemoveHopByHopHeadersFilter.class) {
			return new HopByHopRemoval((RemoveHopByHopHeadersFilter) bean);
		}
		return bean;
	}

	/** Whether the exchange is an inference request, whose upstream headers the allow-list built. */
	static boolean isInferenceRequest(ServerWebExchange exchange) {
		return InferenceContext.parsed(exchange) != null;
	}

	private static int orderOf(HttpHeadersFilter filter) {
		return (filter instanceof Ordered ordered) ? ordered.getOrder() : Ordered.LOWEST_PRECEDENCE;
	}

	/** One of Spring Cloud Gateway's request-only headers filters, for every request but inference requests. */
	static final class SkippedForInferenceRequests implements HttpHeadersFilter, Ordered {

		private final HttpHeadersFilter delegate;

		SkippedForInferenceRequests(HttpHeadersFilter delegate) {
			this.delegate = delegate;
		}

		@Override
		public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
			return isInferenceRequest(exchange) ? input : delegate.filter(input, exchange);
		}

		@Override
		public boolean supports(Type type) {
			return delegate.supports(type);
		}

		@Override
		public int getOrder() {
			return orderOf(delegate);
		}
	}

	/**
	 * Spring Cloud Gateway's hop-by-hop removal, with its configured headers. For an inference exchange it looks
	 * each of those names up rather than passing over every header (iterating Spring's {@code HttpHeaders} builds a
	 * case-insensitive set of all the names first), and returns the headers as they are when none is there.
	 */
	static final class HopByHopRemoval implements HttpHeadersFilter, Ordered {

		private final RemoveHopByHopHeadersFilter delegate;

		/** Lower case: a look-up lower-cases the name it is given, and lower-case names come back as they are. */
		private final String[] removed;

		HopByHopRemoval(RemoveHopByHopHeadersFilter delegate) {
			this.delegate = delegate;
			this.removed = delegate.getHeaders()
				.stream()
				.map((name) -> name.toLowerCase(Locale.ROOT))
				.distinct()
				.toArray(String[]::new);
		}

		@Override
		public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
			if (!isInferenceRequest(exchange)) {
				return delegate.filter(input, exchange);
			}
			List<String> connection = input.get("connection"); // lower case: looked up as it is
			if (connection == null && !containsAny(input)) {
				return input;
			}
			// For an inference exchange the headers are this call's own copy (the allow-list's for the request, the
			// routing filter's for the response), so they lose the hop-by-hop ones in place; read-only ones are copied.
			HttpHeaders kept = input;
			try {
				removeHopByHop(kept, connection);
			}
			catch (UnsupportedOperationException readOnly) {
				kept = HttpHeaders.copyOf(input);
				removeHopByHop(kept, connection);
			}
			return kept;
		}

		private void removeHopByHop(HttpHeaders headers, List<String> connection) {
			List<String> options = null;
			if (connection != null) {
				options = new ArrayList<>();
				for (String value : connection) {
					for (String option : value.split(",")) {
						options.add(option.strip());
					}
				}
			}
			for (String name : removed) {
				if (headers.containsHeader(name)) {
					headers.remove(name);
				}
			}
			if (options != null) {
				for (String option : options) {
					headers.remove(option);
				}
			}
		}

		private boolean containsAny(HttpHeaders headers) {
			for (String name : removed) {
				if (headers.containsHeader(name)) {
					return true;
				}
			}
			return false;
		}

		@Override
		public boolean supports(Type type) {
			return delegate.supports(type);
		}

		@Override
		public int getOrder() {
			return delegate.getOrder();
		}
	}
}
