package io.infergate.routing.model;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;


import io.infergate.routing.pool.PoolProperties;

/** Model configurations built in code, and catalogs over them, for unit tests. */
public final class ModelFixtures {

	private ModelFixtures() {
	}

	public static ModelProperties.Model single(String pool, String targetModel, String adapter) {
		return new ModelProperties.Model(pool, targetModel, adapter, null, List.of(), StickyBy.NONE, List.of(),
				List.of(), null);
	}

	public static ModelProperties.Model split(StickyBy stickyBy, ModelProperties.WeightedTarget... targets) {
		return new ModelProperties.Model(null, null, null, null, List.of(targets), stickyBy, List.of(), List.of(),
				null);
	}

	public static ModelProperties.WeightedTarget target(String pool, String targetModel, int weight) {
		return new ModelProperties.WeightedTarget(pool, targetModel, null, null, weight);
	}

	public static ModelProperties.Model lanes(String targetModel, ModelProperties.Lane... lanes) {
		return new ModelProperties.Model(null, targetModel, null, null, List.of(), StickyBy.NONE, List.of(),
				List.of(lanes), null);
	}

	public static ModelProperties.Lane lane(Integer maxTokens, String pool) {
		return new ModelProperties.Lane(maxTokens, pool);
	}

	/** {@code model} with {@code fallbacks}. */
	public static ModelProperties.Model withFallbacks(ModelProperties.Model model, String... fallbacks) {
		return new ModelProperties.Model(model.pool(), model.targetModel(), model.adapter(), model.limits(),
				model.targets(), model.stickyBy(), List.of(fallbacks), model.lanes(), model.price());
	}

	/** Properties holding {@code models} in the order given: name, model, name, model… */
	public static ModelProperties properties(Object... namesAndModels) {
		Map<String, ModelProperties.Model> models = new LinkedHashMap<>();
		for (int i = 0; i < namesAndModels.length; i += 2) {
			models.put((String) namesAndModels[i], (ModelProperties.Model) namesAndModels[i + 1]);
		}
		return new ModelProperties(models);
	}

	/** A catalog of {@code models} over {@code pools}, whose endpoints serve nothing else. */
	public static ModelCatalog catalog(ModelProperties models, String... pools) {
		return new ModelCatalog(new ConfiguredModels(models, Set.of(pools)), ServedModelRoutes.NONE);
	}
}
