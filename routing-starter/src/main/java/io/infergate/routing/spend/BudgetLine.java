package io.infergate.routing.spend;

import io.infergate.routing.limits.LimitScope;

/**
 * One budget that applies to a request: whose it is ({@code key team-a}, {@code tenant team-a}, {@code model llama},
 * {@code key-model team-a/llama}, or an application limit type's subject) and the budget.
 *
 * @param scope whose limits block holds it
 * @param subject the key id, tenant, model, {@code keyId/model}, or the type's subject
 * @param budget the budget
 */
public record BudgetLine(LimitScope scope, String subject, Budget budget) {

	/** The name of its counters, shared by every replica, without the window: {@code budget:key:team-a:day}. */
	public String counterKey() {
		return "budget:" + scope.label() + ":" + subject + ":" + budget.period().configName();
	}

	/** As in logs and the 429 message: {@code key 'team-a'}. */
	public String describe() {
		return scope.label() + " '" + subject + "'";
	}
}
