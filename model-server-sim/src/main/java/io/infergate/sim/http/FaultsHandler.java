package io.infergate.sim.http;

import java.io.IOException;
import java.time.Duration;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.infergate.sim.fault.FaultInjector;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code /sim/faults}: {@code POST} sets faults from a JSON object (fields absent are left as they are),
 * {@code DELETE} clears them all, {@code GET} shows them. Fields: {@code stallMetrics} (boolean, until cleared),
 * {@code stallMetricsMillis} (hold each scrape this long), {@code failNextRequests} and {@code failStatus}
 * (default 503), {@code abortStreamsAfterChunks}, {@code generationDelayMillis}, {@code resetConnections} and
 * {@code freezeGenerations} (booleans, until cleared), {@code stallStreamsAfterChunks}. Every method answers with the
 * faults in force.
 */
public final class FaultsHandler implements HttpHandler {

	private final FaultInjector faults;

	public FaultsHandler(FaultInjector faults) {
		this.faults = faults;
	}

	@Override
	public void handle(HttpExchange exchange) throws IOException {
		if (!HttpResponses.isExactly(exchange, "/sim/faults")) {
			HttpResponses.sendNotFound(exchange);
			return;
		}
		byte[] body = exchange.getRequestBody().readAllBytes();
		try {
			switch (exchange.getRequestMethod()) {
				case "GET" -> {
				}
				case "DELETE" -> this.faults.clear();
				case "POST" -> apply(body);
				default -> {
					HttpResponses.sendMethodNotAllowed(exchange);
					return;
				}
			}
		}
		catch (OpenAiError error) {
			HttpResponses.sendError(exchange, error);
			return;
		}
		catch (IllegalArgumentException invalid) {
			HttpResponses.sendError(exchange, OpenAiError.badRequest(invalid.getMessage(), null));
			return;
		}
		HttpResponses.sendJson(exchange, 200, stateJson());
	}

	private void apply(byte[] body) throws OpenAiError {
		JsonNode root = Json.readObject(body);
		for (String field : root.propertyNames()) {
			switch (field) {
				case "stallMetrics", "stallMetricsMillis", "failNextRequests", "failStatus", "abortStreamsAfterChunks",
						"generationDelayMillis", "resetConnections", "freezeGenerations", "stallStreamsAfterChunks" -> {
				}
				default -> throw OpenAiError.badRequest("Unknown fault '" + field
						+ "' (valid: stallMetrics, stallMetricsMillis, failNextRequests, failStatus, abortStreamsAfterChunks,"
						+ " generationDelayMillis, resetConnections, freezeGenerations, stallStreamsAfterChunks).", field);
			}
		}
		if (root.has("stallMetricsMillis")) {
			this.faults.stallMetrics(Duration.ofMillis(integer(root, "stallMetricsMillis")));
		}
		else if (root.has("stallMetrics")) {
			if (root.get("stallMetrics").asBoolean()) {
				this.faults.stallMetrics();
			}
			else {
				this.faults.resumeMetrics();
			}
		}
		if (root.has("failNextRequests")) {
			int status = root.has("failStatus") ? (int) integer(root, "failStatus") : 503;
			this.faults.failNextGenerations((int) integer(root, "failNextRequests"), status);
		}
		if (root.has("abortStreamsAfterChunks")) {
			this.faults.abortStreamsAfterChunks((int) integer(root, "abortStreamsAfterChunks"));
		}
		if (root.has("generationDelayMillis")) {
			this.faults.delayGenerations(Duration.ofMillis(integer(root, "generationDelayMillis")));
		}
		if (root.has("resetConnections")) {
			this.faults.resetConnections(root.get("resetConnections").asBoolean());
		}
		if (root.has("freezeGenerations")) {
			this.faults.freezeGenerations(root.get("freezeGenerations").asBoolean());
		}
		if (root.has("stallStreamsAfterChunks")) {
			this.faults.stallStreamsAfterChunks((int) integer(root, "stallStreamsAfterChunks"));
		}
	}

	private static long integer(JsonNode root, String field) throws OpenAiError {
		JsonNode value = root.get(field);
		if (!value.isIntegralNumber()) {
			throw OpenAiError.badRequest("'" + field + "' must be an integer.", field);
		}
		return value.longValue();
	}

	private String stateJson() {
		FaultInjector.State state = this.faults.state();
		ObjectNode json = Json.MAPPER.createObjectNode();
		json.put("stallMetrics", state.metricsStallMillis() >= 0);
		json.put("stallMetricsMillis", Math.max(0, state.metricsStallMillis()));
		json.put("failNextRequests", state.failNextGenerations());
		json.put("failStatus", state.failStatus());
		json.put("abortStreamsAfterChunks", state.abortStreamsAfterChunks());
		json.put("generationDelayMillis", state.generationDelayMillis());
		json.put("resetConnections", state.resetConnections());
		json.put("freezeGenerations", state.freezeGenerations());
		json.put("stallStreamsAfterChunks", state.stallStreamsAfterChunks());
		return Json.MAPPER.writeValueAsString(json);
	}
}
