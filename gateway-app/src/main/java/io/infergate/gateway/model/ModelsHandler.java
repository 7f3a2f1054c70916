package io.infergate.gateway.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import reactor.core.publisher.Mono;

import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import io.infergate.gateway.error.OpenAiError;

/** {@code GET /v1/models} and {@code GET /v1/models/{model}}, answered by the gateway in OpenAI list format. */
public class ModelsHandler {

	private final ModelCatalog catalog;

	private final long createdEpochSeconds = System.currentTimeMillis() / 1000;

	public ModelsHandler(ModelCatalog catalog) {
		this.catalog = catalog;
	}

	public Mono<ServerResponse> list(ServerRequest request) {
		List<Map<String, Object>> data = new ArrayList<>();
		catalog.listModels().forEach((id, route) -> data.add(model(id, route)));
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("object", "list");
		body.put("data", data);
		return ServerResponse.ok().bodyValue(body);
	}

	public Mono<ServerResponse> get(ServerRequest request) {
		String id = request.pathVariable("model");
		ModelRoute route = catalog.resolve(id);
		if (route == null) {
			OpenAiError error = OpenAiError.unknownModel(id);
			return ServerResponse.status(error.status())
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(error.toJson());
		}
		return ServerResponse.ok().bodyValue(model(id, route));
	}

	private Map<String, Object> model(String id, ModelRoute route) {
		Map<String, Object> model = new LinkedHashMap<>();
		model.put("id", id);
		model.put("object", "model");
		model.put("created", createdEpochSeconds);
		model.put("owned_by", "infergate");
		model.put("pool", route.pool());
		return model;
	}
}
