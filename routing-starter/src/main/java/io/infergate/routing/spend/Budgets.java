package io.infergate.routing.spend;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.infergate.routing.limits.TokenUsage;

/**
 * Budgets as the limits step uses them: what a request may cost at most (its estimated prompt and its
 * {@code max_tokens} at its model's price, none of it cached), what it did cost, and the store that holds the one and
 * counts the other, on one clock (a test's own, or the system's).
 */
public final class Budgets {

	private final BudgetStore store;

	private final Costs costs;

	private final Clock clock;

	public Budgets(BudgetStore store, Costs costs, Clock clock) {
		this.store = store;
		this.costs = costs;
		this.clock = clock;
	}

	public BudgetStore store() {
		return store;
	}

	public Costs costs() {
		return costs;
	}

	public Clock clock() {
		return clock;
	}

	/** The most a request for {@code model} can cost, in nano-units: 0 for a model without a price. */
	public long maxCostNanos(String model, long promptTokens, long maxTokens) {
		Price price = costs.price(model);
		return (price != null) ? Budget.toNanos(price.cost(promptTokens, 0, maxTokens)) : 0;
	}

	/** What {@code usage} cost for {@code model}, in nano-units. */
	public long costNanos(String model, TokenUsage usage) {
		Price price = costs.price(model);
		return (price != null) ? Budget.toNanos(price.cost(usage)) : 0;
	}

	/** Holds {@code maxCostNanos} in every hard budget of {@code lines}, or refuses; nothing to do without lines. */
	public CompletionStage<BudgetHold> reserve(List<BudgetLine> lines, long maxCostNanos) {
		if (lines.isEmpty()) {
			return CompletableFuture.completedFuture(BudgetHold.none());
		}
		return store.reserve(lines, maxCostNanos, clock.instant());
	}

	/** Each budget of {@code lines} as it stands now. */
	public CompletionStage<List<BudgetState>> read(List<BudgetLine> lines) {
		return lines.isEmpty() ? CompletableFuture.completedFuture(List.of()) : store.read(lines, clock.instant());
	}
}
