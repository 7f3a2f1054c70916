package io.infergate.gateway.dashboard;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.infergate.admin.source.BudgetSource;
import io.infergate.routing.limits.RateLimiter;
import io.infergate.routing.spend.BudgetLine;
import io.infergate.routing.spend.BudgetState;

/**
 * The dashboard's budgets section: every configured budget, what requests that ended spent of it in its current
 * window and what running ones hold, read from the budgets' store (Redis when shared); empty without budgets.
 */
public class BudgetDashboardSource implements BudgetSource {

	/** Longer than one dashboard tick is of no use: the next tick reads again. */
	private static final Duration READ_TIMEOUT = Duration.ofMillis(400);

	private final RateLimiter rateLimiter;

	public BudgetDashboardSource(RateLimiter rateLimiter) {
		this.rateLimiter = rateLimiter;
	}

	@Override
	public List<BudgetView> budgets() {
		if (rateLimiter.budgets() == null || !rateLimiter.policy().budgetsAnything()) {
			return List.of();
		}
		String currency = rateLimiter.budgets().costs().currency();
		List<BudgetView> budgets = new ArrayList<>();
		for (BudgetState state : rateLimiter.budgetStates(READ_TIMEOUT)) {
			BudgetLine line = state.line();
			budgets.add(new BudgetView(line.scope().label() + ":" + line.subject(), line.budget().period().configName(),
					line.budget().mode().configName(), line.budget().amount(), state.spent(), state.held(), currency,
					(state.resetsAt() != null) ? state.resetsAt().toString() : null, state.exhausted()));
		}
		return budgets;
	}
}
