package io.infergate.routing.spend;

import java.util.List;

import io.infergate.routing.limits.TokenUsage;
import io.infergate.routing.model.ConfiguredModel;
import io.infergate.routing.model.ModelCatalog;

/**
 * What one request cost: its usage at the price of the model the client asked for
 * ({@code infergate.models.<m>.price}, as the running configuration has it, so a reload changes it). A model without a
 * price, or one the configuration does not name (served under its own name), costs 0.
 */
public final class Costs {

	private final ModelCatalog models;

	private final String currency;

	public Costs(ModelCatalog models, String currency) {
		this.models = models;
		this.currency = currency;
	}

	public String currency() {
		return currency;
	}

	/** The cost of {@code usage} for {@code model}; 0 when either is null or the model has no price. */
	public double cost(String model, TokenUsage usage) {
		Price price = price(model);
		return (price != null) ? price.cost(usage) : 0;
	}

	/** Whether {@code model} has a price. */
	public boolean priced(String model) {
		return price(model) != null;
	}

	/** The configured models without a price, in configuration order. */
	public List<String> unpriced() {
		return models.configuredModels().stream().filter((model) -> model.price() == null).map(ConfiguredModel::name)
			.toList();
	}

	/** The price of {@code model} as the running configuration has it; null when it has none. */
	public Price price(String model) {
		if (model == null) {
			return null;
		}
		ConfiguredModel configured = models.configured(model);
		return (configured != null) ? configured.price() : null;
	}
}
