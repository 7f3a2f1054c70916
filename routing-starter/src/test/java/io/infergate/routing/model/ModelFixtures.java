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
		ModelProperties.Model model = new ModelProperties.Model();
		model.setPool(pool);
		model.setTargetModel(targetModel);
		model.setAdapter(adapter);
		return model;
	}

	public static ModelProperties.Model split(StickyBy stickyBy, ModelProperties.WeightedTarget... targets) {
		ModelProperties.Model model = new ModelProperties.Model();
		model.setTargets(List.of(targets));
		model.setStickyBy(stickyBy);
		return model;
	}

	public static ModelProperties.WeightedTarget target(String pool, String targetModel, int weight) {
		ModelProperties.WeightedTarget target = new ModelProperties.WeightedTarget();
		target.setPool(pool);
		target.setTargetModel(targetModel);
		target.setWeight(weight);
		return target;
	}

	public static ModelProperties.Model lanes(String targetModel, ModelProperties.Lane... lanes) {
		ModelProperties.Model model = new ModelProperties.Model();
		model.setTargetModel(targetModel);
		model.setLanes(List.of(lanes));
		return model;
	}

	public static ModelProperties.Lane lane(Integer maxTokens, String pool) {
		ModelProperties.Lane lane = new ModelProperties.Lane();
		lane.setMaxTokens(maxTokens);
		lane.setPool(pool);
		return lane;
	}

	public static ModelProperties.Model withFallbacks(ModelProperties.Model model, String... fallbacks) {
		model.setFallbacks(List.of(fallbacks));
		return model;
	}

	/** Properties holding {@code models} in the order given: name, model, name, model… */
	public static ModelProperties properties(Object... namesAndModels) {
		Map<String, ModelProperties.Model> models = new LinkedHashMap<>();
		for (int i = 0; i < namesAndModels.length; i += 2) {
			models.put((String) namesAndModels[i], (ModelProperties.Model) namesAndModels[i + 1]);
		}
		ModelProperties properties = new ModelProperties();
		properties.setModels(models);
		return properties;
	}

	/** A catalog of {@code models} over {@code pools}, whose endpoints serve nothing else. */
	public static ModelCatalog catalog(ModelProperties models, String... pools) {
		return new ModelCatalog(new ConfiguredModels(models, Set.of(pools)), ServedModelRoutes.NONE);
	}
}
