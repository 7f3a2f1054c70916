package io.infergate.routing.spend;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Where budget spend is counted: this replica's memory, or Redis for every replica. A request holds its largest
 * possible cost against each hard budget while it runs, and its real cost replaces the hold when it ends.
 */
public interface BudgetStore {

	/** {@code memory} or {@code redis}, for logs and metrics. */
	String name();

	/**
	 * Admits a request that may cost up to {@code maxCostNanos} (each hard budget holds at most its own amount of it)
	 * only if every hard budget of {@code lines} has that much left beside what is spent and held, and then holds it
	 * in all of them, atomically. Completes exceptionally only when the store cannot be reached.
	 */
	CompletionStage<BudgetHold> reserve(List<BudgetLine> lines, long maxCostNanos, Instant now);

	/**
	 * Replaces what {@code hold} holds by what the request cost, {@code costNanos}, in every budget of it (soft ones
	 * included). Never throws; a failure is logged.
	 */
	void settle(BudgetHold hold, long costNanos);

	/** Each budget of {@code lines} as it stands at {@code now}, for reports; nothing is held. */
	CompletionStage<List<BudgetState>> read(List<BudgetLine> lines, Instant now);
}
