package io.infergate.sim.http;

import java.io.IOException;
import java.util.List;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;

/**
 * {@code GET /v1/models}: the base model, then each LoRA module as its own model whose {@code parent} is the base
 * model, as vLLM lists them.
 */
public final class ModelsHandler implements HttpHandler {

	private final String body;

	public ModelsHandler(String baseModel, List<String> loraModules, int maxModelLen) {
		long created = System.currentTimeMillis() / 1000;
		StringBuilder json = new StringBuilder("{\"object\":\"list\",\"data\":[");
		json.append(model(baseModel, null, created, maxModelLen));
		for (String adapter : loraModules) {
			json.append(',').append(model(adapter, baseModel, created, maxModelLen));
		}
		this.body = json.append("]}").toString();
	}

	private static String model(String id, String parent, long created, int maxModelLen) {
		return "{\"id\":" + JsonText.quote(id) + ",\"object\":\"model\",\"created\":" + created
				+ ",\"owned_by\":\"vllm\",\"root\":" + JsonText.quote(id) + ",\"parent\":"
				+ ((parent != null) ? JsonText.quote(parent) : "null") + ",\"max_model_len\":" + maxModelLen + "}";
	}

	@Override
	public void handle(HttpExchange exchange) throws IOException {
		if (!HttpResponses.isExactly(exchange, "/v1/models")) {
			HttpResponses.sendNotFound(exchange);
		}
		else if (!"GET".equals(exchange.getRequestMethod())) {
			HttpResponses.sendMethodNotAllowed(exchange);
		}
		else {
			HttpResponses.sendJson(exchange, 200, this.body);
		}
	}
}
