package io.infergate.routing.spend;

import java.time.Instant;

/**
 * One budget as a store found it.
 *
 * @param line the budget
 * @param window the period's window it was found in
 * @param spentNanos what requests that ended cost in the window, in nano-units of the currency
 * @param heldNanos what requests still running hold
 * @param resetsAt when spend starts to leave it: the window's end, or, for {@code rolling-24h}, 24 hours after the
 * oldest minute with spend still counted ({@code null} when nothing is)
 */
public record BudgetState(BudgetLine line, BudgetPeriod.Window window, long spentNanos, long heldNanos,
		Instant resetsAt) {

	public double spent() {
		return Budget.toUnits(spentNanos);
	}

	public double held() {
		return Budget.toUnits(heldNanos);
	}

	/** Whether what ended already reaches the amount. */
	public boolean exhausted() {
		return spentNanos >= line.budget().amountNanos() && (spentNanos > 0 || line.budget().amountNanos() == 0);
	}

	/** Spent over the amount, 0..; 1 when the amount is 0 and anything was spent. */
	public double usedFraction() {
		long amount = line.budget().amountNanos();
		return (amount > 0) ? spentNanos / (double) amount : (spentNanos > 0 ? 1 : 0);
	}

	static Instant rollingReset(long oldestMinute) {
		return (oldestMinute > 0)
				? Instant.ofEpochSecond((oldestMinute + BudgetPeriod.ROLLING_MINUTES) * 60) : null;
	}
}
