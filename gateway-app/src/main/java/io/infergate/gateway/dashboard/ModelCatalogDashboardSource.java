package io.infergate.gateway.dashboard;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.infergate.admin.source.ModelCatalogSource;
import io.infergate.routing.actuate.InferenceReport;
import io.infergate.routing.model.ConfiguredModel;
import io.infergate.routing.model.ModelCatalog;
import io.infergate.routing.model.ModelRoute;

/**
 * The dashboard's models section: the configured models with their weighted targets or lanes, then every other
 * model a single pool serves, with the pool it routes to unchanged.
 */
public class ModelCatalogDashboardSource implements ModelCatalogSource {

	private final ModelCatalog catalog;

	public ModelCatalogDashboardSource(ModelCatalog catalog) {
		this.catalog = catalog;
	}

	@Override
	public List<ModelView> models() {
		List<ModelView> models = new ArrayList<>();
		for (ConfiguredModel model : catalog.configuredModels()) {
			models.add(new ModelView(model.name(), "configured", targets(model.report())));
		}
		for (Map.Entry<String, ModelCatalog.Listing> listed : catalog.listModels().entrySet()) {
			ModelRoute route = (catalog.configured(listed.getKey()) == null) ? catalog.served(listed.getKey()) : null;
			if (route != null) {
				models.add(new ModelView(listed.getKey(), "served",
						List.of(new Target(route.pool(), route.targetModel(), route.adapter(), null))));
			}
		}
		return models;
	}

	private static List<Target> targets(InferenceReport.Model model) {
		Map<String, Target> targets = new LinkedHashMap<>();
		boolean split = model.targets().size() > 1;
		for (InferenceReport.Target target : model.targets()) {
			targets.put(target.pool() + "/" + target.targetModel() + "/" + target.adapter(), new Target(target.pool(),
					target.targetModel(), target.adapter(), split ? target.weight() : null));
		}
		for (InferenceReport.Lane lane : model.lanes()) {
			targets.putIfAbsent(lane.pool() + "/" + lane.targetModel() + "/" + lane.adapter(),
					new Target(lane.pool(), lane.targetModel(), lane.adapter(), null));
		}
		return List.copyOf(targets.values());
	}
}
