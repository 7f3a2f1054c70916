package io.infergate.routing.spend;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.infergate.routing.pool.FailureMode;

/**
 * Budgets in the shared store with the limits' way out when it cannot be reached
 * ({@code infergate.rate-limits.on-store-failure}): {@code fail-open} decides against this replica's memory (each
 * replica then enforces each budget on its own until the store is back), {@code fail-close} refuses, which the gateway
 * answers with 503. Every request tries the shared store first. Each request decided without it counts in
 * {@code infergate.budget.store.failures}; the switch each way is logged once.
 */
public final class FailoverBudgetStore implements BudgetStore, AutoCloseable {

	private static final Log logger = LogFactory.getLog(FailoverBudgetStore.class);

	private final BudgetStore shared;

	private final MemoryBudgetStore local;

	private final FailureMode onFailure;

	private final Counter failures;

	private final AtomicBoolean available = new AtomicBoolean(true);

	public FailoverBudgetStore(BudgetStore shared, MemoryBudgetStore local, FailureMode onFailure,
			MeterRegistry registry) {
		this.shared = shared;
		this.local = local;
		this.onFailure = onFailure;
		this.failures = Counter.builder("infergate.budget.store.failures")
			.description("Budget decisions taken without the shared store because it could not be reached")
			.tags("store", shared.name(), "on-store-failure", onFailure.configName())
			.register(registry);
	}

	@Override
	public String name() {
		return shared.name();
	}

	@Override
	public CompletionStage<BudgetHold> reserve(List<BudgetLine> lines, long maxCostNanos, Instant now) {
		return shared.reserve(lines, maxCostNanos, now).handle((hold, ex) -> {
			if (ex == null) {
				if (available.compareAndSet(false, true)) {
					logger.info("The " + shared.name() + " budget store answers again: budgets are shared by every "
							+ "replica again");
				}
				return hold;
			}
			failures.increment();
			if (available.compareAndSet(true, false)) {
				logger.warn("The " + shared.name() + " budget store cannot be reached (" + ex.getMessage()
						+ "); on-store-failure is " + onFailure.configName() + ", so until it is back "
						+ ((onFailure == FailureMode.FAIL_OPEN) ? "each replica enforces the budgets on its own"
								: "requests subject to a budget are refused with 503"));
			}
			return (onFailure == FailureMode.FAIL_OPEN) ? local.reserveNow(lines, maxCostNanos, now)
					: BudgetHold.unavailable(lines, maxCostNanos);
		});
	}

	@Override
	public void settle(BudgetHold hold, long costNanos) {
		throw new IllegalStateException("a hold is settled by the store that made it");
	}

	@Override
	public CompletionStage<List<BudgetState>> read(List<BudgetLine> lines, Instant now) {
		return shared.read(lines, now).exceptionallyCompose((ex) -> (onFailure == FailureMode.FAIL_OPEN)
				? local.read(lines, now) : CompletableFuture.failedFuture(ex));
	}

	@Override
	public void close() throws Exception {
		if (shared instanceof AutoCloseable closeable) {
			closeable.close();
		}
	}
}
