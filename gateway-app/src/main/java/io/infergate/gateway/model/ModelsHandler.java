package io.infergate.gateway.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import io.infergate.routing.auth.ApiKeys;
import io.infergate.routing.model.ModelCatalog;
import io.infergate.gateway.error.OpenAiError;

/**
 * {@code GET /v1/models} and {@code GET /v1/models/{model}}, answered by the gateway in OpenAI list format: the
 * configured model names, then the models the pools serve. Besides OpenAI's fields each entry has {@code pools} (the
 * pools it may be served by), {@code fallbacks} for a configured model that has them, and {@code parent} for a LoRA
 * adapter a pool serves.
 * <p>
 * With API keys on, both need a valid key (401 {@code invalid_api_key} otherwise, as for inference), and a key sees
 * only the models its globs allow: the list leaves the others out, and asking for one of them is a 404 like an
 * unknown model, so a key learns nothing about models it may not call.
 */
public class ModelsHandler {

	private final ModelCatalog catalog;

	private final ApiKeys keys;

	private final long createdEpochSeconds = System.currentTimeMillis() / 1000;

	public ModelsHandler(ModelCatalog catalog, ApiKeys keys) {
		this.catalog = catalog;
		this.keys = keys;
	}

	public Mono<ServerResponse> list(ServerRequest request) {
		ApiKeys.Authentication caller = keys.authenticate(request.headers().firstHeader(HttpHeaders.AUTHORIZATION),
				request.headers().firstHeader(ApiKeys.API_KEY_HEADER));
		if (caller.refused()) {
			return unauthorized(caller.failure());
		}
		List<Map<String, Object>> data = new ArrayList<>();
		catalog.listModels().forEach((id, listing) -> {
			if (caller.mayCall(id)) {
				data.add(model(id, listing));
			}
		});
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("object", "list");
		body.put("data", data);
		return ServerResponse.ok().bodyValue(body);
	}

	public Mono<ServerResponse> get(ServerRequest request) {
		ApiKeys.Authentication caller = keys.authenticate(request.headers().firstHeader(HttpHeaders.AUTHORIZATION),
				request.headers().firstHeader(ApiKeys.API_KEY_HEADER));
		if (caller.refused()) {
			return unauthorized(caller.failure());
		}
		String id = request.pathVariable("model");
		ModelCatalog.Listing listing = caller.mayCall(id) ? catalog.listing(id) : null;
		if (listing == null) {
			List<String> suggestions = catalog.suggestionsFor(id).stream().filter(caller::mayCall).toList();
			return error(OpenAiError.unknownModel(id, suggestions));
		}
		return ServerResponse.ok().bodyValue(model(id, listing));
	}

	private static Mono<ServerResponse> unauthorized(String message) {
		OpenAiError error = OpenAiError.invalidApiKey(message);
		return ServerResponse.status(error.status())
			.header(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(error.toJson());
	}

	private static Mono<ServerResponse> error(OpenAiError error) {
		return ServerResponse.status(error.status()).contentType(MediaType.APPLICATION_JSON).bodyValue(error.toJson());
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
