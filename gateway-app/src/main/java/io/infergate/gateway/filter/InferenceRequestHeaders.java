package io.infergate.gateway.filter;

import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.cloud.gateway.filter.headers.GRPCRequestHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.RemoveForwardedHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.RemoveXForwardedHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.TransferEncodingNormalizationHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.XForwardedHeadersFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.routing.request.InfergateAttributes;

/**
 * Leaves an inference request's upstream headers to the allow-list ({@link ForwardedHeadersFilter}, which runs
 * first). Spring Cloud Gateway's request-only headers filters remove or add {@code Forwarded} and
 * {@code X-Forwarded-*}, normalize {@code Transfer-Encoding} against {@code Content-Length}, and add gRPC's
 * {@code TE}; each copies every header of every request. After the allow-list an inference request has none of those
 * headers and a body of known length, so there is nothing for them to do, and they are skipped for it: in a
 * profile under load they held 4% of the gateway's CPU samples. Every other request, and every response, still
 * passes them, and the filters that act on responses too (hop-by-hop removal) run for every request.
 * <p>
 * Should {@code infergate.gateway.forwarded-headers} name a {@code Forwarded} or {@code X-Forwarded-*} header,
 * nothing is skipped: such a header then reaches the model server removed or set as Spring Cloud Gateway decides.
 */
public final class InferenceRequestHeaders implements BeanPostProcessor {

	private static final Set<Class<?>> REQUEST_ONLY_FILTERS = Set.of(RemoveForwardedHeadersFilter.class,
			RemoveXForwardedHeadersFilter.class,
			org.springframework.cloud.gateway.filter.headers.ForwardedHeadersFilter.class,
			XForwardedHeadersFilter.class, TransferEncodingNormalizationHeadersFilter.class,
			GRPCRequestHeadersFilter.class);

	private final boolean skip;

	/** @param forwardedHeaders the allow-list, {@code infergate.gateway.forwarded-headers} */
	public InferenceRequestHeaders(List<String> forwardedHeaders) {
		this.skip = forwardedHeaders.stream().noneMatch(InferenceRequestHeaders::isProxyHeader);
	}

	/** {@code Forwarded}, or an {@code X-Forwarded-*} header. */
	private static boolean isProxyHeader(String name) {
		String lower = name.toLowerCase(Locale.ROOT);
		return lower.equals("forwarded") || lower.startsWith("x-forwarded-");
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (skip && REQUEST_ONLY_FILTERS.contains(bean.getClass())) {
			return new SkippedForInferenceRequests((HttpHeadersFilter) bean);
		}
		return bean;
	}

	/** Whether the exchange is an inference request, whose upstream headers the allow-list built. */
	static boolean isInferenceRequest(ServerWebExchange exchange) {
		return exchange.getAttribute(InfergateAttributes.PARSED_REQUEST) != null;
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
			return (delegate instanceof Ordered ordered) ? ordered.getOrder() : Ordered.LOWEST_PRECEDENCE;
		}

		HttpHeadersFilter delegate() {
			return delegate;
		}
	}
}
