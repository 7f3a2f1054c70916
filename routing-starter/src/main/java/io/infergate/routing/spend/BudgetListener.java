package io.infergate.routing.spend;

/**
 * Told once per budget and window when what ended in it reaches its amount: by the replica whose request settled it
 * there (with Redis, exactly one replica is told).
 */
@FunctionalInterface
public interface BudgetListener {

	BudgetListener NONE = (line, window, spentNanos) -> {
	};

	/**
	 * @param line the budget
	 * @param window its window ({@code r24} for a rolling budget, told again once its spend has fallen below the
	 * amount and reached it again)
	 * @param spentNanos what was spent in it, in nano-units, counting the request that reached it
	 */
	void reached(BudgetLine line, BudgetPeriod.Window window, long spentNanos);
}
