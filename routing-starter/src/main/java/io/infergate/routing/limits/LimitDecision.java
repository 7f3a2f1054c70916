package io.infergate.routing.limits;

import java.util.concurrent.atomic.AtomicBoolean;

import io.infergate.routing.spend.BudgetHold;
import io.infergate.routing.spend.Budgets;

/**
 * The limits' answer to one request, its rate limits' and its budgets'. An admitted request holds its reservation
 * and its budget hold until {@link #complete} is called with the tokens it really used, when its response ends, fails
 * or is cancelled.
 */
public final class LimitDecision {

	/** What the request may do. */
	public enum Status {

		/** Every limit and budget admitted it. */
		ADMITTED,

		/** A rate limit refused it: 429 {@code rate_limit_exceeded}. */
		RATE_LIMITED,

		/** A hard budget is spent: 429 {@code insufficient_quota}. */
		BUDGET_EXHAUSTED,

		/** The shared store cannot be reached and {@code on-store-failure} is fail-close: 503. */
		STORE_UNAVAILABLE
	}

	private final Caller caller;

	private final String model;

	private final Reservation reservation;

	private final BudgetHold budgetHold;

	private final TenantMeters.Meters meters;

	private final Budgets budgets;

	private final Status status;

	private final AtomicBoolean completed = new AtomicBoolean();

	LimitDecision(Caller caller, String model, Reservation reservation, BudgetHold budgetHold,
			TenantMeters.Meters meters, Budgets budgets) {
		this.caller = caller;
		this.model = model;
		this.reservation = reservation;
		this.budgetHold = budgetHold;
		this.meters = meters;
		this.budgets = budgets;
		this.status = status(reservation.status(), budgetHold.status());
	}

	private static Status status(Reservation.Status rates, BudgetHold.Status spend) {
		if (rates == Reservation.Status.STORE_UNAVAILABLE || spend == BudgetHold.Status.STORE_UNAVAILABLE) {
			return Status.STORE_UNAVAILABLE;
		}
		if (rates == Reservation.Status.REJECTED) {
			return Status.RATE_LIMITED;
		}
		return (spend == BudgetHold.Status.EXHAUSTED) ? Status.BUDGET_EXHAUSTED : Status.ADMITTED;
	}

	public Caller caller() {
		return caller;
	}

	public String model() {
		return model;
	}

	public Status status() {
		return status;
	}

	public boolean admitted() {
		return status == Status.ADMITTED;
	}

	/** The currency of budgets and costs; {@code USD} when budgets are not checked. */
	public String currency() {
		return (budgets != null) ? budgets.costs().currency() : "USD";
	}

	/** What the budgets answered: the hold, or the exhausted budget that refused. */
	public BudgetHold budgetHold() {
		return budgetHold;
	}

	/** What the store answered: the limits to report in headers, and the refusing limit. */
	public Reservation reservation() {
		return reservation;
	}

	/** Whether any request or token limit applies, so the response carries {@code x-ratelimit-*} headers. */
	public boolean reportsLimits() {
		return reservation.requests() != null || reservation.tokenLimit() != null;
	}

	/**
	 * Charges the tokens the request really used to its limits (replacing the reservation) and what they cost at
	 * the model's price to its budgets (replacing the hold), releases its max-parallel lease and counts its tokens for
	 * the tenant. Only the first call counts.
	 */
	public void complete(TokenUsage usage) {
		if (admitted() && completed.compareAndSet(false, true)) {
			meters.used(usage);
			reservation.release(usage.total());
			if (budgetHold.admitted() && !budgetHold.lines().isEmpty()) {
				budgetHold.settle(budgets.costNanos(model, usage));
			}
		}
	}
}
