package io.infergate.routing.admission;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Admission by rate limits: checks one request of a caller for a model against every limit that applies
 * ({@link RateLimitPolicy}) in one atomic check-and-reserve of the store, and counts the outcome per tenant.
 * <p>
 * It has no gateway types, so the gateway's admission filter and the bench harness drive the same code. It is
 * called once per model a request is served by: a fallback model is charged to its own limits, and a refusal here
 * is final (it never triggers a fallback).
 */
public final class RateLimiter {

	private final RateLimitPolicy policy;

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
	public CompletionStage<Admission> admit(Caller caller, String model, long tokens) {
		TenantMeters.Meters callerMeters = meters.of(caller);
		List<Bucket> buckets = policy.buckets(caller, model);
		if (buckets.isEmpty()) {
			callerMeters.admitted();
			return CompletableFuture.completedFuture(new Admission(caller, model, Reservation.unlimited(), callerMeters));
		}
		return store.reserve(buckets, tokens).thenApply((reservation) -> {
			switch (reservation.status()) {
				case ADMITTED -> callerMeters.admitted();
				case REJECTED -> callerMeters.rateLimited(reservation.denied());
				case STORE_UNAVAILABLE -> callerMeters.storeUnavailable();
			}
			return new Admission(caller, model, reservation, callerMeters);
		});
	}
}
