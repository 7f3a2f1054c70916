package io.infergate.gateway.observe;

import java.math.BigDecimal;
import java.time.Instant;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.infergate.routing.limits.TokenUsage;

/**
 * The access log: one JSON line per inference request on the logger {@value #LOGGER} (which the gateway's logging
 * configuration writes as the bare line), with the request id, key id, tenant, model, pool, endpoint, status,
 * TTFT, duration, tokens (cached prompt tokens among them), cost (in {@code infergate.usage.currency}, a plain
 * decimal) and queue wait. Fields the gateway does not know are {@code null}. It never holds prompt or completion
 * text. Off unless {@code infergate.access-log.enabled=true}.
 */
public final class AccessLog {

	public static final String LOGGER = "io.infergate.access";

	private static final Log log = LogFactory.getLog(LOGGER);

	public void log(CompletedRequest request) {
		if (log.isInfoEnabled()) {
			log.info(line(request, Instant.now()));
		}
	}

	static String line(CompletedRequest request, Instant time) {
		StringBuilder json = new StringBuilder(320);
		json.append('{');
		string(json, "time", time.toString()).append(',');
		string(json, "requestId", request.requestId()).append(',');
		string(json, "keyId", request.apiKeyId()).append(',');
		string(json, "tenant", request.tenant()).append(',');
		string(json, "model", request.model()).append(',');
		string(json, "pool", request.pool()).append(',');
		string(json, "endpoint", request.endpoint()).append(',');
		json.append("\"status\":").append(request.status()).append(',');
		json.append("\"stream\":").append(request.stream()).append(',');
		json.append("\"completed\":").append(request.completed()).append(',');
		millis(json, "ttftMs", request.ttftNanos()).append(',');
		millis(json, "durationMs", request.durationNanos()).append(',');
		TokenUsage usage = request.usage();
		json.append("\"inputTokens\":").append(usage == null ? "null" : Long.toString(usage.inputTokens())).append(',');
		json.append("\"outputTokens\":").append(usage == null ? "null" : Long.toString(usage.outputTokens())).append(',');
		json.append("\"cachedInputTokens\":").append(usage == null ? "null" : Long.toString(usage.cachedInputTokens()))
			.append(',');
		json.append("\"cost\":").append(BigDecimal.valueOf(request.cost()).toPlainString()).append(',');
		millis(json, "queueWaitMs", request.queueWaitNanos()).append(',');
		json.append("\"fallbacks\":").append(request.fallbacks() < 0 ? "null" : Integer.toString(request.fallbacks()));
		return json.append('}').toString();
	}

	private static StringBuilder string(StringBuilder json, String name, String value) {
		return JsonText.string(JsonText.name(json, name), value);
	}

	private static StringBuilder millis(StringBuilder json, String name, long nanos) {
		return JsonText.millis(JsonText.name(json, name), nanos);
	}
}
