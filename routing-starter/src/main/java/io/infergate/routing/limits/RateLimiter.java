package io.infergate.routing.limits;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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

	public RateLimiter(RateLimitPolicy policy, RateLimitStore store, TenantMeters meters) {
		this.policy = policy;
		this.store = store;
		this.meters = meters;
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
	 * prompt tokens plus the completion tokens it may generate). When no limit applies the store is not consulted.
	 */
	public CompletionStage<LimitDecision> admit(Caller caller, String model, long tokens) {
		TenantMeters.Meters callerMeters = meters.of(caller);
		List<Bucket> buckets = policy.buckets(caller, model);
		if (buckets.isEmpty()) {
			callerMeters.admitted();
			return CompletableFuture.completedFuture(new LimitDecision(caller, model, Reservation.unlimited(), callerMeters));
		}
		return store.reserve(buckets, tokens).thenApply((reservation) -> {
			switch (reservation.status()) {
				case ADMITTED -> callerMeters.admitted();
				case REJECTED -> callerMeters.rateLimited(reservation.denied());
				case STORE_UNAVAILABLE -> callerMeters.storeUnavailable();
			}
			return new LimitDecision(caller, model, reservation, callerMeters);
		});
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
