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

/**
 * {@code GET /v1/models} and {@code GET /v1/models/{model}}, answered by the gateway in OpenAI list format: the
 * configured model names, then the models the pools serve. Besides OpenAI's fields each entry has {@code pools} (the
 * pools it may be served by), {@code fallbacks} for a configured model that has them, and {@code parent} for a LoRA
 * adapter a pool serves.
 */
public class ModelsHandler {

	private final ModelCatalog catalog;

	private final long createdEpochSeconds = System.currentTimeMillis() / 1000;

	public ModelsHandler(ModelCatalog catalog) {
		this.catalog = catalog;
	}

	public Mono<ServerResponse> list(ServerRequest request) {
		List<Map<String, Object>> data = new ArrayList<>();
		catalog.listModels().forEach((id, listing) -> data.add(model(id, listing)));
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("object", "list");
		body.put("data", data);
		return ServerResponse.ok().bodyValue(body);
	}

	public Mono<ServerResponse> get(ServerRequest request) {
		String id = request.pathVariable("model");
		ModelCatalog.Listing listing = catalog.listing(id);
		if (listing == null) {
			OpenAiError error = OpenAiError.unknownModel(id, catalog.suggestionsFor(id));
			return ServerResponse.status(error.status())
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(error.toJson());
		}
		return ServerResponse.ok().bodyValue(model(id, listing));
	}

	private Map<String, Object> model(String id, ModelCatalog.Listing listing) {
		Map<String, Object> model = new LinkedHashMap<>();
		model.put("id", id);
		model.put("object", "model");
		model.put("created", createdEpochSeconds);
		model.put("owned_by", "infergate");
		model.put("pools", listing.pools());
		if (listing.parent() != null) {
			model.put("parent", listing.parent());
		}
		if (!listing.fallbacks().isEmpty()) {
			model.put("fallbacks", listing.fallbacks());
		}
		return model;
	}
}
