package io.infergate.admin.web;

import java.security.Principal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Function;

import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import io.infergate.admin.runtime.RuntimeChanges;

/**
 * The dashboard's runtime changes, behind the admin's login like every {@code /admin} path:
 * <ul>
 * <li>{@code GET /admin/api/changes}: {@code {"enabled", "changes": [...]}}, newest first;</li>
 * <li>{@code POST /admin/api/profiles/{profile}/weights} with {@code {"weights": {"scorer": number}}}: applies
 * them, answers the change;</li>
 * <li>{@code POST /admin/api/changes/{id}/revert}: puts back the weights that change replaced, as a new change.</li>
 * </ul>
 * With runtime changes off both POSTs answer 403. A POST must carry {@value #ORIGIN_HEADER} (the page sends it): a
 * cross-site form cannot set a header, and a cross-origin script cannot send one without a CORS preflight the
 * management port never grants, so the admin's remembered credentials cannot be used from another site.
 */
public final class RuntimeChangeHandlers {

	/** The header every runtime-change POST carries, with any value. */
	public static final String ORIGIN_HEADER = "X-Infergate-Dashboard";

	private final RuntimeChanges changes;

	private final DashboardJson json;

	public RuntimeChangeHandlers(RuntimeChanges changes, DashboardJson json) {
		this.changes = changes;
		this.json = json;
	}

	public Mono<ServerResponse> list(ServerRequest request) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("enabled", changes.enabled());
		body.put("changes", changes.recent());
		return ok(body);
	}

	public Mono<ServerResponse> applyWeights(ServerRequest request) {
		String profile = request.pathVariable("profile");
		return guarded(request, (by) -> request.bodyToMono(byte[].class).defaultIfEmpty(new byte[0]).flatMap((bytes) -> {
			Map<String, Double> weights;
			try {
				weights = weights(json.read(bytes));
			}
			catch (JacksonException | IllegalArgumentException ex) {
				return invalid("the body must be {\"weights\": {\"<scorer>\": <number>, ...}}: "
						+ ((ex instanceof JacksonException) ? "not JSON" : ex.getMessage()));
			}
			try {
				return ok(changes.apply(by, profile, weights));
			}
			catch (IllegalArgumentException ex) {
				return invalid(ex.getMessage());
			}
		}));
	}

	public Mono<ServerResponse> revert(ServerRequest request) {
		long id;
		try {
			id = Long.parseLong(request.pathVariable("id"));
		}
		catch (NumberFormatException ex) {
			return invalid("a change id is a number, got '" + request.pathVariable("id") + "'");
		}
		return guarded(request, (by) -> {
			try {
				return ok(changes.revert(by, id));
			}
			catch (NoSuchElementException ex) {
				return DashboardHandlers.error(json, HttpStatus.NOT_FOUND, "not_found_error", ex.getMessage());
			}
		});
	}

	/** Runs {@code action} with the admin's name when changes are on and the request carries the header. */
	private Mono<ServerResponse> guarded(ServerRequest request,
			Function<String, Mono<ServerResponse>> action) {
		if (!changes.enabled()) {
			return DashboardHandlers.error(json, HttpStatus.FORBIDDEN, "permission_error",
					"runtime changes are off: set infergate.management.admin.allow-runtime-changes=true to allow them");
		}
		if (request.headers().firstHeader(ORIGIN_HEADER) == null) {
			return DashboardHandlers.error(json, HttpStatus.FORBIDDEN, "permission_error",
					"a runtime change must carry the header " + ORIGIN_HEADER + ", as the dashboard sends it");
		}
		return request.principal().map(Principal::getName).defaultIfEmpty("unknown").flatMap(action);
	}

	/** {@code {"weights": {"scorer": number}}}; throws IllegalArgumentException naming what is wrong. */
	static Map<String, Double> weights(JsonNode body) {
		JsonNode weights = body.path("weights");
		if (!weights.isObject() || weights.isEmpty()) {
			throw new IllegalArgumentException("'weights' must be an object with at least one scorer");
		}
		Map<String, Double> parsed = new LinkedHashMap<>();
		for (Map.Entry<String, JsonNode> weight : weights.properties()) {
			if (!weight.getValue().isNumber()) {
				throw new IllegalArgumentException("weight of '" + weight.getKey() + "' must be a number");
			}
			parsed.put(weight.getKey(), weight.getValue().asDouble());
		}
		return parsed;
	}

	private Mono<ServerResponse> invalid(String message) {
		return DashboardHandlers.error(json, HttpStatus.BAD_REQUEST, "invalid_request_error", message);
	}

	private Mono<ServerResponse> ok(Object body) {
		return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(json.writeBytes(body));
	}
}
