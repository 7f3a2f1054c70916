package io.infergate.sim.http;

import java.io.IOException;
import java.util.List;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code GET /v1/models}: the base model, then each LoRA module as its own model whose {@code parent} is the base
 * model, as vLLM lists them.
 */
public final class ModelsHandler implements HttpHandler {

	private final String body;

	public ModelsHandler(String baseModel, List<String> loraModules, int maxModelLen) {
		long created = System.currentTimeMillis() / 1000;
		ObjectNode list = Json.MAPPER.createObjectNode();
		list.put("object", "list");
		ArrayNode data = list.putArray("data");
		data.add(model(baseModel, baseModel, null, created, maxModelLen));
		for (String adapter : loraModules) {
			data.add(model(adapter, adapter, baseModel, created, maxModelLen));
		}
		this.body = Json.MAPPER.writeValueAsString(list);
	}

	private static ObjectNode model(String id, String root, String parent, long created, int maxModelLen) {
		ObjectNode model = Json.MAPPER.createObjectNode();
		model.put("id", id);
		model.put("object", "model");
		model.put("created", created);
		model.put("owned_by", "vllm");
		model.put("root", root);
		if (parent != null) {
			model.put("parent", parent);
		}
		else {
			model.putNull("parent");
		}
		model.put("max_model_len", maxModelLen);
		return model;
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
