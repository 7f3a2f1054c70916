package io.infergate.routing.limits;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.infergate.routing.spend.BudgetHold;
import io.infergate.routing.spend.BudgetState;
import io.infergate.routing.spend.Budgets;

/**
 * Limits: checks one request of a caller for a model against every limit that applies
 * ({@link RateLimitPolicy}) in one atomic check-and-reserve of the store, and counts the outcome per tenant.
 * <p>
 * It has no gateway types, so the gateway's limits step and the bench harness drive the same code. It is
 * called once per model a request is served by: a fallback model is charged to its own limits, and a refusal here
 * is final (it never triggers a fallback).
 */
public final class RateLimiter {

	private volatile RateLimitPolicy policy;

	private final RateLimitStore store;

	private final TenantMeters meters;

	private final Budgets budgets;

	/** Limits without budgets (a budget configured nonetheless is never charged). */
	public RateLimiter(RateLimitPolicy policy, RateLimitStore store, TenantMeters meters) {
		this(policy, store, meters, null);
	}

	/** @param budgets the budgets' store, prices and clock; {@code null} when budgets are not checked */
	public RateLimiter(RateLimitPolicy policy, RateLimitStore store, TenantMeters meters, Budgets budgets) {
		this.policy = policy;
		this.store = store;
		this.meters = meters;
		this.budgets = budgets;
	}

	/** The budgets' store, prices and clock, or {@code null}. */
	public Budgets budgets() {
		return budgets;
	}

	public RateLimitPolicy policy() {
		return policy;
	}

	/** After a configuration reload; a request already admitted settles against the decision it got. */
	public void reconfigure(RateLimitPolicy policy) {
		this.policy = policy;
	}

	public RateLimitStore store() {
		return store;
	}

	public TenantMeters meters() {
		return meters;
	}

	/**
	 * Admits or refuses one request of {@code caller} for {@code model} that reserves {@code tokens} (estimated
	 * prompt tokens plus the completion tokens it may generate), without charging any budget. When no limit applies
	 * the store is not consulted.
	 */
	public CompletionStage<LimitDecision> admit(Caller caller, String model, long tokens) {
		return admit(caller, model, tokens, 0, 0);
	}

	/**
	 * Admits or refuses one request of {@code caller} for {@code model} against its limits and its budgets at once:
	 * its limits reserve {@code promptTokens + maxTokens}, its hard budgets hold the most those tokens can cost at the
	 * model's price. The two stores are asked side by side; when one refuses, what the other reserved is given back
	 * at once (a refused request costs nothing, and uses no token). When nothing applies no store is consulted.
	 */
	public CompletionStage<LimitDecision> admit(Caller caller, String model, long promptTokens, long maxTokens) {
		long maxCost = (budgets != null) ? budgets.maxCostNanos(model, promptTokens, maxTokens) : 0;
		return admit(caller, model, promptTokens + maxTokens, maxCost, 1);
	}

	private CompletionStage<LimitDecision> admit(Caller caller, String model, long tokens, long maxCostNanos,
			int budgeted) {
		TenantMeters.Meters callerMeters = meters.of(caller);
		RateLimitPolicy.Applicable applicable = policy.applicable(caller, model);
		List<Bucket> buckets = applicable.buckets();
		boolean budgetsApply = budgeted > 0 && budgets != null && !applicable.budgets().isEmpty();
		if (buckets.isEmpty() && !budgetsApply) {
			callerMeters.admitted();
			return CompletableFuture.completedFuture(
					new LimitDecision(caller, model, Reservation.unlimited(), BudgetHold.none(), callerMeters, null));
		}
		CompletionStage<Reservation> rates = buckets.isEmpty() ? CompletableFuture.completedFuture(Reservation.unlimited())
				: store.reserve(buckets, tokens);
		if (!budgetsApply) {
			return rates.thenApply((reservation) -> decide(caller, model, reservation, BudgetHold.none(), callerMeters));
		}
		CompletionStage<BudgetHold> spend = budgets.reserve(applicable.budgets(), maxCostNanos);
		return rates.thenCombine(spend, (reservation, hold) -> decide(caller, model, reservation, hold, callerMeters));
	}

	private LimitDecision decide(Caller caller, String model, Reservation reservation, BudgetHold hold,
			TenantMeters.Meters callerMeters) {
		LimitDecision decision = new LimitDecision(caller, model, reservation, hold, callerMeters, budgets);
		switch (decision.status()) {
			case ADMITTED -> callerMeters.admitted();
			case RATE_LIMITED -> callerMeters.rateLimited(reservation.denied());
			case BUDGET_EXHAUSTED -> callerMeters.budgetExhausted(hold.exhausted());
			case STORE_UNAVAILABLE -> callerMeters.storeUnavailable();
		}
		if (decision.status() != LimitDecision.Status.ADMITTED) {
			// what one store reserved for a request the other refused goes back at once
			reservation.release(0);
			hold.settle(0);
		}
		return decision;
	}

	/**
	 * Every configured budget as it stands now, waited for at most {@code timeout}; empty without budgets, or when
	 * the store does not answer in time.
	 */
	public List<BudgetState> budgetStates(Duration timeout) {
		if (budgets == null) {
			return List.of();
		}
		try {
			return budgets.read(policy.allBudgets()).toCompletableFuture().get(timeout.toMillis(),
					TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return List.of();
		}
		catch (ExecutionException | TimeoutException ex) {
			return List.of();
		}
	}

	/**
	 * The state now of every limit that applies to {@code tenant} (its own, its keys' and their key × model limits),
	 * read from the store and waited for at most {@code timeout}; empty when it has none, or when the store does not
	 * answer in time (a report must not hang on Redis).
	 */
	public List<LimitState> tenantLimits(String tenant, Duration timeout) {
		List<Bucket> buckets = policy.tenantBuckets(tenant);
		if (buckets.isEmpty()) {
			return List.of();
		}
		try {
			return store.read(buckets).toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return List.of();
		}
		catch (ExecutionException | TimeoutException ex) {
			return List.of();
		}
	}
}
