package io.infergate.gateway.model;

import java.util.ArrayList;
import java.util.List;

import io.infergate.admin.source.ModelCatalogSource;

/** The dashboard's models section: every model the catalog lists, with the one target it routes to today. */
public class ModelCatalogDashboardSource implements ModelCatalogSource {

	private final ModelCatalog catalog;

	public ModelCatalogDashboardSource(ModelCatalog catalog) {
		this.catalog = catalog;
	}

	@Override
	public List<ModelView> models() {
		List<ModelView> models = new ArrayList<>();
		catalog.listModels()
			.forEach((name, route) -> models.add(new ModelView(name,
					catalog.isConfigured(name) ? "configured" : "served",
					List.of(new Target(route.pool(), route.targetModel(), route.adapter(), null)))));
		return models;
	}
}
