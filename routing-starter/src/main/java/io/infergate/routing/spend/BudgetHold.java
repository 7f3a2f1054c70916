package io.infergate.routing.spend;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What a {@link BudgetStore} answered to one request: admitted (it holds its largest possible cost in every hard
 * budget until {@link #settle}), refused by an exhausted hard budget, or not decided because the store could not be
 * reached.
 */
public final class BudgetHold {

	public enum Status {

		ADMITTED, EXHAUSTED, STORE_UNAVAILABLE
	}

	private static final BudgetHold NONE = new BudgetHold(Status.ADMITTED, null, List.of(), 0, null, null, null,
			null);

	private final Status status;

	private final BudgetStore store;

	private final List<BudgetLine> lines;

	private final long maxCostNanos;

	private final Instant at;

	private final String leaseId;

	private final BudgetState exhausted;

	private final Object storeHandle;

	private final AtomicBoolean settled = new AtomicBoolean();

	BudgetHold(Status status, BudgetStore store, List<BudgetLine> lines, long maxCostNanos, Instant at,
			String leaseId, BudgetState exhausted, Object storeHandle) {
		this.status = status;
		this.store = store;
		this.lines = lines;
		this.maxCostNanos = maxCostNanos;
		this.at = at;
		this.leaseId = leaseId;
		this.exhausted = exhausted;
		this.storeHandle = storeHandle;
	}

	/** A request no budget applies to: nothing held, nothing to settle. */
	public static BudgetHold none() {
		return NONE;
	}

	static BudgetHold unavailable(List<BudgetLine> lines, long maxCostNanos) {
		return new BudgetHold(Status.STORE_UNAVAILABLE, null, lines, maxCostNanos, null, null, null, null);
	}

	static BudgetHold refused(List<BudgetLine> lines, long maxCostNanos, Instant at, BudgetState exhausted) {
		return new BudgetHold(Status.EXHAUSTED, null, lines, maxCostNanos, at, null, exhausted, null);
	}

	public Status status() {
		return status;
	}

	public boolean admitted() {
		return status == Status.ADMITTED;
	}

	/** The budgets the request was checked against. */
	public List<BudgetLine> lines() {
		return lines;
	}

	/** The largest cost the request may have, in nano-units, as asked of each hard budget. */
	public long maxCostNanos() {
		return maxCostNanos;
	}

	/** The nano-units {@code line} holds for the request: at most its own amount. */
	static long heldBy(BudgetLine line, long maxCostNanos) {
		return line.budget().hard() ? Math.min(maxCostNanos, line.budget().amountNanos()) : 0;
	}

	/** When the request was admitted: the period (and minute) its cost counts in. */
	public Instant at() {
		return at;
	}

	String leaseId() {
		return leaseId;
	}

	Object storeHandle() {
		return storeHandle;
	}

	/** For a refused request, the hard budget that refused it, as it stood. */
	public BudgetState exhausted() {
		return exhausted;
	}

	/** Replaces what is held by {@code costNanos}, what the request cost. Only the first call counts. */
	public void settle(long costNanos) {
		if (status == Status.ADMITTED && store != null && settled.compareAndSet(false, true)) {
			store.settle(this, costNanos);
		}
	}
}
