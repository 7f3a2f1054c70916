package io.infergate.gateway.observe;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.micrometer.common.KeyValue;
import io.micrometer.tracing.handler.TracingObservationHandler;

import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;

/**
 * Adds what Infergate knows of a request to the request's server observation, so the span the tracer makes of
 * it (one per request) carries them: {@code infergate.pool}, {@code gen_ai.request.model},
 * {@code infergate.endpoint}, {@code infergate.profile}, {@code infergate.queue_wait_ms},
 * {@code infergate.fallbacks}, {@code infergate.ttft_ms}, {@code gen_ai.usage.input_tokens} and
 * {@code gen_ai.usage.output_tokens}, each only when known. They are high-cardinality key values: the span gets
 * them, the {@code http.server.requests} metrics do not. Only a sampled span gets them: an unsampled one is never
 * exported.
 */
public final class InferenceSpanTags {

	public void tag(Map<String, Object> exchangeAttributes, CompletedRequest request) {
		ServerRequestObservationContext context = ServerRequestObservationContext.findCurrent(exchangeAttributes)
			.orElse(null);
		if (context == null || !isSampled(context)) {
			// an unsampled span is never exported: its attributes would only be merged, sorted and dropped
			return;
		}
		add(context, "infergate.pool", request.pool());
		add(context, "gen_ai.request.model", request.model());
		add(context, "infergate.endpoint", request.endpoint());
		add(context, "infergate.profile", request.profile());
		if (request.queueWaitNanos() >= 0) {
			add(context, "infergate.queue_wait_ms", Long.toString(TimeUnit.NANOSECONDS.toMillis(request.queueWaitNanos())));
		}
		if (request.fallbacks() >= 0) {
			add(context, "infergate.fallbacks", Integer.toString(request.fallbacks()));
		}
		if (request.ttftNanos() >= 0) {
			add(context, "infergate.ttft_ms", Long.toString(TimeUnit.NANOSECONDS.toMillis(request.ttftNanos())));
		}
		if (request.usage() != null) {
			add(context, "gen_ai.usage.input_tokens", Long.toString(request.usage().inputTokens()));
			add(context, "gen_ai.usage.output_tokens", Long.toString(request.usage().outputTokens()));
		}
	}

	private static boolean isSampled(ServerRequestObservationContext context) {
		TracingObservationHandler.TracingContext tracing = context.get(TracingObservationHandler.TracingContext.class);
		return tracing != null && UpstreamTraceContext.isSampled(tracing.getSpan());
	}

	private static void add(ServerRequestObservationContext context, String key, String value) {
		if (value != null) {
			context.addHighCardinalityKeyValue(KeyValue.of(key, value));
		}
	}
}
