package io.infergate.gateway.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import io.infergate.routing.pool.EndpointRegistry;

/**
 * Resolves the {@code model} a client asked for to a pool: first the configured {@code infergate.models}, then
 * a model that exactly one pool's endpoints serve, which routes there unchanged.
 */
public class ModelCatalog {

	private final Map<String, ModelRoute> configured;

	private final ServedModels served;

	public ModelCatalog(ModelProperties properties, EndpointRegistry registry, ServedModels served) {
		Map<String, ModelRoute> routes = new LinkedHashMap<>();
		properties.getModels().forEach((name, model) -> {
			if (registry.pool(model.getPool()) == null) {
				throw new IllegalArgumentException("infergate.models." + name + ".pool: no pool named '"
						+ model.getPool() + "'; configured pools: "
						+ registry.pools().stream().map((p) -> p.name()).toList());
			}
			String target = (model.getTargetModel() != null) ? model.getTargetModel() : name;
			String adapter = (model.getAdapter() != null && !model.getAdapter().isBlank()) ? model.getAdapter() : null;
			routes.put(name, new ModelRoute(model.getPool(), target, adapter));
		});
		this.configured = Collections.unmodifiableMap(routes);
		this.served = served;
	}

	/** The route of {@code model}, or {@code null} when no pool serves it. */
	public ModelRoute resolve(String model) {
		ModelRoute route = configured.get(model);
		return (route != null) ? route : served.resolve(model);
	}

	/** Whether {@code model} is configured under {@code infergate.models}, rather than found on a pool's endpoints. */
	public boolean isConfigured(String model) {
		return configured.containsKey(model);
	}

	/** The configured model names, then every other model a single pool serves. */
	public Map<String, ModelRoute> listModels() {
		Map<String, ModelRoute> all = new LinkedHashMap<>(configured);
		for (String id : served.modelIds()) {
			if (!all.containsKey(id)) {
				ModelRoute route = served.resolve(id);
				if (route != null) {
					all.put(id, route);
				}
			}
		}
		return all;
	}
}
