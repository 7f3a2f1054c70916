package io.infergate.gateway.route;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

import io.infergate.gateway.error.OpenAiError;
import io.infergate.routing.spend.Budget;
import io.infergate.routing.spend.BudgetState;

/**
 * The 429 of a request a spent hard budget refused, in OpenAI's {@code insufficient_quota} shape: the message names
 * the budget, what is spent and held, what the request may cost, and when the budget resets. Headers:
 * {@code x-infergate-dropped-reason: budget-exhausted}; {@code x-should-retry: false}, which the OpenAI SDKs obey
 * instead of retrying a 429; and {@code Retry-After} until the reset when it is known.
 */
public final class BudgetRefusal {

	public static final String DROPPED_REASON = "budget-exhausted";

	public static final String SHOULD_RETRY_HEADER = "x-should-retry";

	private BudgetRefusal() {
	}

	/** Sets the refusal's headers for a budget that resets at {@code resetsAt} (or {@code null}), seen at {@code now}. */
	public static void writeHeaders(HttpHeaders headers, BudgetState exhausted, Instant now) {
		headers.set(RateLimitHeaders.DROPPED_REASON_HEADER, DROPPED_REASON);
		headers.set(SHOULD_RETRY_HEADER, "false");
		if (exhausted.resetsAt() != null) {
			long seconds = Math.max(1, Duration.between(now, exhausted.resetsAt()).toSeconds() + 1);
			headers.set(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
		}
	}

	/**
	 * "Budget exhausted for key 'team-a': 50 USD per day, 49.99 USD spent and 0.02 USD held by requests in flight;
	 * this request may cost up to 0.03 USD. It resets at 2026-12-08T00:00:00Z."
	 */
	public static OpenAiError error(BudgetState exhausted, long maxCostNanos, String currency) {
		Budget budget = exhausted.line().budget();
		StringBuilder message = new StringBuilder("Budget exhausted for ").append(exhausted.line().describe())
			.append(": ")
			.append(amount(budget.amount()))
			.append(' ')
			.append(currency)
			.append(" per ")
			.append(budget.period().rolling() ? "24 hours (rolling)" : budget.period().configName())
			.append(", ")
			.append(amount(exhausted.spent()))
			.append(' ')
			.append(currency)
			.append(" spent");
		if (exhausted.heldNanos() > 0) {
			message.append(" and ").append(amount(exhausted.held())).append(' ').append(currency)
				.append(" held by requests in flight");
		}
		message.append("; this request may cost up to ").append(amount(Budget.toUnits(maxCostNanos))).append(' ')
			.append(currency).append('.');
		if (exhausted.resetsAt() != null) {
			message.append(budget.period().rolling() ? " Spend starts to leave it at " : " It resets at ")
				.append(exhausted.resetsAt())
				.append('.');
		}
		return new OpenAiError(HttpStatus.TOO_MANY_REQUESTS, message.toString(), "insufficient_quota", null,
				"insufficient_quota");
	}

	static String amount(double value) {
		return BigDecimal.valueOf(value).setScale(6, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
	}
}
