package io.infergate.routing.model;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.infergate.routing.config.InvalidConfigurationException;

/**
 * The model names clients may use: first the configured {@code infergate.models} (aliases, splits, lanes, each with
 * its fallbacks), then any model that exactly one pool's endpoints serve, which routes there unchanged.
 */
public class ModelCatalog {

	private volatile ConfiguredModels configured;

	private final ServedModelRoutes served;

	/** @throws InvalidConfigurationException when the configured models have problems */
	public ModelCatalog(ConfiguredModels configured, ServedModelRoutes served) {
		InvalidConfigurationException.throwIfAny(List.of(configured));
		this.configured = configured;
		this.served = served;
	}

	/**
	 * After a configuration reload: the models a request resolves from now on. A request already resolved keeps its
	 * route.
	 *
	 * @throws InvalidConfigurationException when the configured models have problems
	 */
	public void reconfigure(ConfiguredModels configured) {
		InvalidConfigurationException.throwIfAny(List.of(configured));
		this.configured = configured;
	}

	/** The configured model called {@code model}, or {@code null}. */
	public ConfiguredModel configured(String model) {
		return configured.get(model);
	}

	/** The configured models, in configuration order. */
	public Collection<ConfiguredModel> configuredModels() {
		return configured.all();
	}

	/** The route of {@code model} when it is not configured but exactly one pool serves it, else {@code null}. */
	public ModelRoute served(String model) {
		return served.resolve(model);
	}

	/** Whether a request for {@code model} can be routed at all. */
	public boolean knows(String model) {
		return configured.get(model) != null || served.resolve(model) != null;
	}

	/**
	 * The models a request for {@code model} tries, in order: itself, then its fallbacks (a model only the pools
	 * serve has none).
	 */
	public List<String> attemptOrder(String model) {
		ConfiguredModel definition = configured.get(model);
		return (definition != null) ? definition.attemptOrder() : List.of(model);
	}

	/** The configured models, then every other model a single pool serves, by name. */
	public Map<String, Listing> listModels() {
		Map<String, Listing> all = new LinkedHashMap<>();
		for (ConfiguredModel model : configured.all()) {
			all.put(model.name(), listing(model));
		}
		for (String id : served.modelIds()) {
			if (!all.containsKey(id)) {
				ModelRoute route = served.resolve(id);
				if (route != null) {
					all.put(id, new Listing(List.of(route.pool()), (route.adapter() != null) ? route.targetModel() : null,
							List.of()));
				}
			}
		}
		return all;
	}

	/** How {@code model} is listed, or {@code null} when no pool serves it. */
	public Listing listing(String model) {
		ConfiguredModel definition = configured.get(model);
		if (definition != null) {
			return listing(definition);
		}
		ModelRoute route = served.resolve(model);
		return (route != null) ? new Listing(List.of(route.pool()),
				(route.adapter() != null) ? route.targetModel() : null, List.of()) : null;
	}

	/** Known model names close to {@code model}, which matched none. */
	public List<String> suggestionsFor(String model) {
		Set<String> names = new LinkedHashSet<>();
		for (ConfiguredModel definition : configured.all()) {
			names.add(definition.name());
		}
		names.addAll(served.modelIds());
		return ModelSuggestions.closeTo(model, names);
	}

	private static Listing listing(ConfiguredModel model) {
		Set<String> pools = new LinkedHashSet<>();
		for (ModelRoute route : model.routes()) {
			pools.add(route.pool());
		}
		return new Listing(List.copyOf(pools), null, model.fallbacks());
	}

	/**
	 * A model as {@code /v1/models} shows it.
	 *
	 * @param pools the pools it may be served by
	 * @param parent the base model of a LoRA adapter a pool serves, else {@code null}
	 * @param fallbacks its fallbacks, as configured
	 */
	public record Listing(List<String> pools, String parent, List<String> fallbacks) {
	}
}
