package io.infergate.routing.spend;

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Budget spend in this replica's memory: exact for one replica. One counter per budget, for its current window (a
 * new window starts from nothing); a rolling budget keeps one slot per minute of the last 24 hours. A request's
 * check-and-hold over its budgets runs under one lock, so it is atomic; it is a few arithmetic operations per budget.
 */
public final class MemoryBudgetStore implements BudgetStore {

	private final ZoneId zone;

	private final BudgetListener listener;

	private final ConcurrentHashMap<String, Counter> counters = new ConcurrentHashMap<>();

	private final Object lock = new Object();

	public MemoryBudgetStore(ZoneId zone, BudgetListener listener) {
		this.zone = zone;
		this.listener = listener;
	}

	@Override
	public String name() {
		return "memory";
	}

	@Override
	public CompletionStage<BudgetHold> reserve(List<BudgetLine> lines, long maxCostNanos, Instant now) {
		return CompletableFuture.completedFuture(reserveNow(lines, maxCostNanos, now));
	}

	/** {@link #reserve}, answered at once. */
	public BudgetHold reserveNow(List<BudgetLine> lines, long maxCostNanos, Instant now) {
		Counter[] held = new Counter[lines.size()];
		long minute = BudgetPeriod.minute(now);
		synchronized (lock) {
			for (int i = 0; i < lines.size(); i++) {
				BudgetLine line = lines.get(i);
				Counter counter = counter(line, now, minute);
				held[i] = counter;
				long hold = BudgetHold.heldBy(line, maxCostNanos);
				if (line.budget().hard() && counter.spent + counter.held + hold > line.budget().amountNanos()) {
					return BudgetHold.refused(lines, maxCostNanos, now, counter.state(line));
				}
			}
			for (int i = 0; i < lines.size(); i++) {
				held[i].held += BudgetHold.heldBy(lines.get(i), maxCostNanos);
			}
		}
		return new BudgetHold(BudgetHold.Status.ADMITTED, this, lines, maxCostNanos, now, null, null,
				new Handle(held, minute));
	}

	@Override
	public void settle(BudgetHold hold, long costNanos) {
		Handle handle = (Handle) hold.storeHandle();
		List<BudgetLine> lines = hold.lines();
		List<Runnable> reached = null;
		synchronized (lock) {
			for (int i = 0; i < lines.size(); i++) {
				BudgetLine line = lines.get(i);
				Counter counter = handle.counters[i];
				if (counter.retired) {
					continue;
				}
				counter.held -= BudgetHold.heldBy(line, hold.maxCostNanos());
				if (counter.add(handle.minute, costNanos) && !counter.told) {
					counter.told = true;
					BudgetPeriod.Window window = counter.window;
					long spent = counter.spent;
					if (reached == null) {
						reached = new ArrayList<>(1);
					}
					reached.add(() -> listener.reached(line, window, spent));
				}
			}
		}
		if (reached != null) {
			reached.forEach(Runnable::run);
		}
	}

	@Override
	public CompletionStage<List<BudgetState>> read(List<BudgetLine> lines, Instant now) {
		List<BudgetState> states = new ArrayList<>(lines.size());
		long minute = BudgetPeriod.minute(now);
		synchronized (lock) {
			for (BudgetLine line : lines) {
				states.add(counter(line, now, minute).state(line));
			}
		}
		return CompletableFuture.completedFuture(states);
	}

	/** The counter of {@code line}'s window at {@code now}, a new one when the window changed; under the lock. */
	private Counter counter(BudgetLine line, Instant now, long minute) {
		String key = line.counterKey();
		Counter counter = counters.get(key);
		BudgetPeriod period = line.budget().period();
		if (period.rolling()) {
			if (counter == null) {
				counter = new Counter(period.window(now, zone), line.budget().amountNanos(), true);
				counters.put(key, counter);
			}
			counter.expire(minute);
			return counter;
		}
		if (counter == null || !now.isBefore(counter.window.end()) || now.isBefore(counter.window.start())) {
			BudgetPeriod.Window window = period.window(now, zone);
			if (counter == null || !counter.window.id().equals(window.id())) {
				if (counter != null) {
					counter.retired = true;
				}
				counter = new Counter(window, line.budget().amountNanos(), false);
				counters.put(key, counter);
			}
		}
		return counter;
	}

	private record Handle(Counter[] counters, long minute) {
	}

	/** One budget's spend in one window. */
	private static final class Counter {

		private final BudgetPeriod.Window window;

		private final long amount;

		private final long[] slots;

		private final long[] slotMinutes;

		/** The oldest minute that may still hold spend (rolling), or 0. */
		private long oldest;

		/** The oldest minute counted as of the last {@link #expire}: older spend is gone. */
		private long first;

		private long spent;

		private long held;

		private boolean told;

		private boolean retired;

		private Counter(BudgetPeriod.Window window, long amount, boolean rolling) {
			this.window = window;
			this.amount = amount;
			this.slots = rolling ? new long[BudgetPeriod.ROLLING_MINUTES] : null;
			this.slotMinutes = rolling ? new long[BudgetPeriod.ROLLING_MINUTES] : null;
		}

		/** Adds a cost admitted in {@code minute}; true when the spend now reaches the amount. */
		boolean add(long minute, long cost) {
			if (slots != null) {
				if (minute < first) {
					return false;
				}
				int slot = (int) Math.floorMod(minute, BudgetPeriod.ROLLING_MINUTES);
				if (slotMinutes[slot] != minute) {
					slots[slot] = 0;
					slotMinutes[slot] = minute;
				}
				slots[slot] += cost;
				if (oldest == 0 || minute < oldest) {
					oldest = minute;
				}
			}
			spent += cost;
			return cost > 0 && spent >= amount;
		}

		/** Lets go of the spend of minutes more than 24 hours before {@code minute}. */
		void expire(long minute) {
			first = Math.max(first, minute - BudgetPeriod.ROLLING_MINUTES + 1);
			if (oldest == 0 || oldest >= first) {
				return;
			}
			for (int slot = 0; slot < slots.length; slot++) {
				if (slotMinutes[slot] != 0 && slotMinutes[slot] < first) {
					spent -= slots[slot];
					slots[slot] = 0;
					slotMinutes[slot] = 0;
				}
			}
			oldest = 0;
			for (long slotMinute : slotMinutes) {
				if (slotMinute != 0 && (oldest == 0 || slotMinute < oldest)) {
					oldest = slotMinute;
				}
			}
			if (spent < amount) {
				told = false;
			}
		}

		BudgetState state(BudgetLine line) {
			return new BudgetState(line, window, spent, held,
					(slots != null) ? BudgetState.rollingReset(oldest) : window.end());
		}
	}
}
