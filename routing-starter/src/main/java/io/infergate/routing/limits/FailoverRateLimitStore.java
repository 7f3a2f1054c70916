package io.infergate.routing.limits;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.infergate.routing.pool.FailureMode;

/**
 * A shared store with a way out when it cannot be reached, as {@code infergate.rate-limits.on-store-failure} says:
 * {@code fail-open} decides the request against this replica's own memory counters (each replica then enforces
 * the whole limit on its own, so N replicas may let N times the limit through until the store is back);
 * {@code fail-close} refuses it, which the gateway answers with 503.
 * <p>
 * Every request tries the shared store first, which fails at once while it is down, so limits are shared again
 * from the first request after it is back. The switch each way is logged once; every request decided without the
 * shared store is counted in {@code infergate.rate.limit.store.failures} (tag {@code on-store-failure}), and
 * {@code infergate.rate.limit.store.available} is 1 while it answers.
 */
public final class FailoverRateLimitStore implements RateLimitStore, AutoCloseable {

	private static final Log logger = LogFactory.getLog(FailoverRateLimitStore.class);

	private final RateLimitStore shared;

	private final MemoryRateLimitStore local;

	private final FailureMode onFailure;

	private final Counter failures;

	private final AtomicBoolean available = new AtomicBoolean(true);

	public FailoverRateLimitStore(RateLimitStore shared, MemoryRateLimitStore local, FailureMode onFailure,
			MeterRegistry registry) {
		this.shared = shared;
		this.local = local;
		this.onFailure = onFailure;
		this.failures = Counter.builder("infergate.rate.limit.store.failures")
			.description("Limit decisions taken without the shared rate-limit store because it could not be reached")
			.tags("store", shared.name(), "on-store-failure", onFailure.configName())
			.register(registry);
		Gauge.builder("infergate.rate.limit.store.available", available, (up) -> up.get() ? 1 : 0)
			.description("1 while the shared rate-limit store answers, 0 while the limits fall back")
			.tags("store", shared.name())
			.register(registry);
	}

	@Override
	public String name() {
		return shared.name();
	}

	/** Whether the shared store answered the last request. */
	public boolean isAvailable() {
		return available.get();
	}

	@Override
	public CompletionStage<Reservation> reserve(List<Bucket> buckets, long tokens) {
		return shared.reserve(buckets, tokens).handle((reservation, ex) -> {
			if (ex == null) {
				if (available.compareAndSet(false, true)) {
					logger.info("The " + shared.name() + " rate-limit store answers again: limits are shared by "
							+ "every replica again");
				}
				return reservation;
			}
			failures.increment();
			if (available.compareAndSet(true, false)) {
				logger.warn("The " + shared.name() + " rate-limit store cannot be reached (" + ex.getMessage()
						+ "); on-store-failure is " + onFailure.configName() + ", so until it is back "
						+ ((onFailure == FailureMode.FAIL_OPEN) ? "each replica enforces the limits on its own"
								: "requests subject to limits are refused with 503"));
			}
			return (onFailure == FailureMode.FAIL_OPEN) ? local.reserveNow(buckets, tokens)
					: Reservation.unavailable(buckets, tokens);
		});
	}

	@Override
	public void release(Reservation reservation, long actualTokens) {
		throw new IllegalStateException("a reservation is released by the store that made it");
	}

	@Override
	public void close() throws Exception {
		if (shared instanceof AutoCloseable closeable) {
			closeable.close();
		}
	}

	@Override
	public CompletionStage<List<LimitState>> read(List<Bucket> buckets) {
		return shared.read(buckets).exceptionallyCompose((ex) -> (onFailure == FailureMode.FAIL_OPEN)
				? local.read(buckets) : CompletableFuture.failedFuture(ex));
	}
}
