package io.infergate.routing.spend;

import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * A budget, in any limits block (a key's, a tenant's, a model's, a key × model's, the defaults):
 * {@code budget: {amount: 50, period: month, mode: hard}}, in {@code infergate.usage.currency}.
 *
 * @param amount What may be spent per period, in the usage currency; 0 admits nothing that costs anything.
 * @param period The period spend is counted over: day, month (calendar, in infergate.usage.budget-zone), or rolling-24h.
 * @param mode What the budget does once spent: hard refuses with 429 insufficient_quota, soft only warns.
 */
public record Budget(Double amount, @DefaultValue("month") BudgetPeriod period, @DefaultValue("hard") BudgetMode mode) {

	public Budget {
		period = (period != null) ? period : BudgetPeriod.MONTH;
		mode = (mode != null) ? mode : BudgetMode.HARD;
	}

	/** Nano-units of the currency per unit: spend is counted in whole nano-units, exact under addition. */
	public static final long NANOS_PER_UNIT = 1_000_000_000L;

	/** The amount in nano-units of the currency. */
	public long amountNanos() {
		return toNanos(amount);
	}

	public boolean hard() {
		return mode != BudgetMode.SOFT;
	}

	/** {@code value} currency units as nano-units, rounded up: a cost is never counted as less than it is. */
	public static long toNanos(double value) {
		double nanos = value * NANOS_PER_UNIT;
		// a price times tokens carries floating-point noise a few ulps wide: not a nano-unit more
		return (long) Math.ceil(nanos - Math.max(1e-6, Math.abs(nanos) * 1e-12));
	}

	/** {@code nanos} as currency units. */
	public static double toUnits(long nanos) {
		return nanos / (double) NANOS_PER_UNIT;
	}

	/** The problems of a budget at {@code path} ({@code ....limits.budget}), each naming its property. */
	public static List<String> problems(String path, Budget budget) {
		List<String> problems = new ArrayList<>();
		if (budget == null) {
			return problems;
		}
		if (budget.amount() == null) {
			problems.add(path + ".amount: missing; a budget needs an amount in the usage currency");
		}
		else if (!(budget.amount() >= 0) || Double.isInfinite(budget.amount())) {
			problems.add(path + ".amount: must be a finite number, 0 or more, got " + budget.amount());
		}
		else if (budget.amount() * NANOS_PER_UNIT >= (1L << 53)) {
			problems.add(path + ".amount: at most 9,000,000 currency units, got " + budget.amount());
		}
		return problems;
	}
}
