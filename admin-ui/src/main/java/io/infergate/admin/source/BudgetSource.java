package io.infergate.admin.source;

import java.util.List;

/**
 * Every configured budget and what is spent of it now, for the dashboard's budgets section. The budgets provide it
 * as a bean when any is configured; without one the section is left out.
 */
@FunctionalInterface
public interface BudgetSource {

	/** Every budget, in the order the dashboard should list them. */
	List<BudgetView> budgets();

	/**
	 * One budget.
	 *
	 * @param name whose it is, {@code scope:subject}, e.g. {@code key:team-a} or {@code tenant:research}
	 * @param period {@code day}, {@code month} or {@code rolling-24h}
	 * @param mode {@code hard} (refuses once spent) or {@code soft} (only warns)
	 * @param amount what may be spent per period
	 * @param spent what requests that ended spent in the current window
	 * @param held what requests still running hold of it
	 * @param currency the currency of the three
	 * @param resetsAt when spend starts to leave it, an ISO instant, or {@code null}
	 * @param reached whether what is spent reaches the amount: the badge
	 */
	record BudgetView(String name, String period, String mode, double amount, double spent, double held,
			String currency, String resetsAt, boolean reached) {
	}
}
