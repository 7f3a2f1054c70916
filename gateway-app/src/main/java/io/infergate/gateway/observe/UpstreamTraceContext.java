package io.infergate.gateway.observe;

import io.micrometer.observation.Observation;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.handler.TracingObservationHandler;
import io.micrometer.tracing.propagation.Propagator;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.observation.ObservedRequestHttpHeadersFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.routing.request.InfergateAttributes;

/**
 * How a request's trace reaches the model server, at a cost that follows the sampling decision.
 * <p>
 * A sampled request's proxied call is observed as Spring Cloud Gateway does it: a client span, child of the
 * request's span, whose context goes out in {@code traceparent}. An unsampled request (nine in ten by default) skips
 * that observation, which cost about a tenth of the gateway's CPU per request, and the model server receives the
 * request span's own context instead, flagged unsampled, so it still joins the trace and follows its decision.
 * Without tracing there is neither.
 */
public final class UpstreamTraceContext {

	/** After the forwarded-headers filter, which builds the upstream headers afresh. */
	public static final int ORDER = Ordered.LOWEST_PRECEDENCE;

	private UpstreamTraceContext() {
	}

	/**
	 * Observes the gateway's proxied calls only for requests whose span is sampled: Spring Cloud Gateway's filter that
	 * starts the observation (and copies the headers to carry its context) is passed over for the others.
	 */
	public static BeanPostProcessor proxiedCallsOfSampledRequestsOnly() {
		return new BeanPostProcessor() {
			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) {
				return (bean instanceof ObservedRequestHttpHeadersFilter observed) ? new SampledRequestsOnly(observed)
						: bean;
			}
		};
	}

	/** Puts an unsampled request's trace context on the proxied call; does nothing without a propagator. */
	public static HttpHeadersFilter unsampledTraceparent(Propagator propagator) {
		return new UnsampledTraceparent(propagator);
	}

	/** The span of the request's server observation; {@code null} without tracing. */
	static Span requestSpan(ServerWebExchange exchange) {
		if (exchange == null) {
			return null;
		}
		Observation.Context context = ServerRequestObservationContext.findCurrent(exchange.getAttributes()).orElse(null);
		if (context == null) {
			return null;
		}
		TracingObservationHandler.TracingContext tracing = context.get(TracingObservationHandler.TracingContext.class);
		return (tracing != null) ? tracing.getSpan() : null;
	}

	static boolean isSampled(Span span) {
		return span != null && Boolean.TRUE.equals(span.context().sampled());
	}

	private static final class SampledRequestsOnly implements HttpHeadersFilter {

		private final HttpHeadersFilter observed;

		SampledRequestsOnly(HttpHeadersFilter observed) {
			this.observed = observed;
		}

		@Override
		public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
			return isSampled(requestSpan(exchange)) ? observed.filter(input, exchange) : input;
		}

		@Override
		public boolean supports(Type type) {
			return observed.supports(type);
		}
	}

	private static final class UnsampledTraceparent implements HttpHeadersFilter, Ordered {

		private final Propagator propagator;

		UnsampledTraceparent(Propagator propagator) {
			this.propagator = propagator;
		}

		@Override
		public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
			Span span = (this.propagator != null) ? requestSpan(exchange) : null;
			if (span == null || isSampled(span)) {
				return input;
			}
			if (exchange.getAttribute(InfergateAttributes.INFERENCE_CONTEXT) != null) {
				// an inference request's headers here are the allow-list's copy, built for this call: set in place
				try {
					this.propagator.inject(span.context(), input, HttpHeaders::set);
					return input;
				}
				catch (UnsupportedOperationException readOnly) {
					// copied below
				}
			}
			HttpHeaders output = HttpHeaders.copyOf(input);
			this.propagator.inject(span.context(), output, HttpHeaders::set);
			return output;
		}

		@Override
		public boolean supports(Type type) {
			return type == Type.REQUEST;
		}

		@Override
		public int getOrder() {
			return ORDER;
		}
	}
}
