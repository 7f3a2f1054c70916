package io.infergate.routing.spend;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.infergate.routing.redis.ScriptConnection;

/**
 * Budget spend in Redis, shared by every gateway replica. One {@code EVALSHA} of {@code budgets.lua} is a request's
 * whole check-and-hold over its budgets (atomic, because Redis runs a script alone), so no replica can let a hard
 * budget be overspent. Settles of finished requests ride along with the next request's call, or go on their own
 * 5 ms after the first of them when no request comes: under load a request costs one round trip, on its path.
 * <p>
 * Each budget and window is a hash ({@code <prefix>budget:<scope>:<subject>:<period>:<window>}: spent, held) and a
 * sorted set of the holds of running requests, each expiring after {@code hold-timeout} so that a replica that dies
 * cannot hold a budget forever. A fixed window's keys expire a day after it ends; a rolling budget's keep one field
 * per minute with spend and expire after 25 idle hours. Windows are computed from this replica's clock, so replicas
 * should keep theirs in sync (as with NTP): near a boundary, two replicas a second apart count a second differently.
 * <p>
 * While Redis cannot be reached, calls fail at once; the settles a failed call carried are lost to Redis (their holds
 * expire there), and each is counted by the caller's metrics.
 */
public final class RedisBudgetStore implements BudgetStore, AutoCloseable {

	private static final Log logger = LogFactory.getLog(RedisBudgetStore.class);

	private static final long SETTLE_LINGER_MICROS = 5000;

	private static final int MAX_SETTLES_PER_CALL = 128;

	private static final long DAY_MILLIS = TimeUnit.DAYS.toMillis(1);

	private static final long ROLLING_TTL_MILLIS = TimeUnit.HOURS.toMillis(25);

	private static final ScriptConnection.Script SCRIPT = ScriptConnection.Script.load(RedisBudgetStore.class,
			"budgets.lua");

	private final ScriptConnection redis;

	private final String keyPrefix;

	private final ZoneId zone;

	private final long holdMillis;

	private final BudgetListener listener;

	private final Clock clock;

	private final String leasePrefix = UUID.randomUUID().toString().substring(0, 8) + "-";

	private final AtomicLong leases = new AtomicLong();

	private final Object lock = new Object();

	private List<Settle> pending = new ArrayList<>();

	private boolean flushScheduled;

	/** When the oldest settle waiting was queued ({@link System#nanoTime}). */
	private long oldestPendingNanos;

	/**
	 * @param redis the connection, shared with the limits; {@link #close} leaves it open
	 * @param keyPrefix prefix of every key (the limits' prefix)
	 * @param holdTimeout how long a running request's hold lives when nothing settles it
	 * @param clock the clock settles are sent at (the one requests are reserved at)
	 */
	public RedisBudgetStore(ScriptConnection redis, String keyPrefix, ZoneId zone, Duration holdTimeout,
			BudgetListener listener, Clock clock) {
		this.clock = clock;
		this.redis = redis;
		this.keyPrefix = keyPrefix;
		this.zone = zone;
		this.holdMillis = holdTimeout.toMillis();
		this.listener = listener;
	}

	@Override
	public String name() {
		return "redis";
	}

	public boolean isConnected() {
		return redis.isConnected();
	}

	@Override
	public CompletionStage<BudgetHold> reserve(List<BudgetLine> lines, long maxCostNanos, Instant now) {
		String leaseId = leasePrefix + Long.toString(leases.incrementAndGet(), 36);
		Call call = new Call(takePending(), now);
		List<BudgetPeriod.Window> windows = call.request("reserve", lines, maxCostNanos, leaseId,
				now.toEpochMilli() + holdMillis);
		return send(call).thenApply((values) -> {
			int at = call.settleValues();
			int refusedBy = values.get(at).intValue();
			if (refusedBy > 0) {
				BudgetLine line = lines.get(refusedBy - 1);
				return BudgetHold.refused(lines, maxCostNanos, now, state(line, windows.get(refusedBy - 1), values,
						at + 1 + 3 * (refusedBy - 1)));
			}
			return new BudgetHold(BudgetHold.Status.ADMITTED, this, lines, maxCostNanos, now, leaseId, null,
					windows);
		});
	}

	@Override
	public CompletionStage<List<BudgetState>> read(List<BudgetLine> lines, Instant now) {
		Call call = new Call(List.of(), now);
		List<BudgetPeriod.Window> windows = call.request("read", lines, 0, "-", now.toEpochMilli());
		return send(call).thenApply((values) -> {
			List<BudgetState> states = new ArrayList<>(lines.size());
			for (int i = 0; i < lines.size(); i++) {
				states.add(state(lines.get(i), windows.get(i), values, 1 + 3 * i));
			}
			return states;
		});
	}

	private static BudgetState state(BudgetLine line, BudgetPeriod.Window window, List<Long> values, int at) {
		return new BudgetState(line, window, values.get(at), values.get(at + 1),
				line.budget().period().rolling() ? BudgetState.rollingReset(values.get(at + 2)) : window.end());
	}

	/**
	 * Queues the settle for the next call: the next request's, when one comes within {@value #SETTLE_LINGER_MICROS}
	 * µs, else one of its own then; {@value #MAX_SETTLES_PER_CALL} settles go at once.
	 */
	@Override
	public void settle(BudgetHold hold, long costNanos) {
		@SuppressWarnings("unchecked")
		List<BudgetPeriod.Window> windows = (List<BudgetPeriod.Window>) hold.storeHandle();
		Settle settle = new Settle(hold, windows, costNanos);
		List<Settle> ready = null;
		synchronized (lock) {
			if (pending.isEmpty()) {
				oldestPendingNanos = System.nanoTime();
			}
			pending.add(settle);
			if (pending.size() >= MAX_SETTLES_PER_CALL) {
				ready = pending;
				pending = new ArrayList<>();
			}
			else if (!flushScheduled) {
				scheduleFlush(SETTLE_LINGER_MICROS);
			}
		}
		if (ready != null) {
			send(new Call(ready, clock.instant()));
		}
	}

	/** To be called holding {@link #lock}. */
	private void scheduleFlush(long delayMicros) {
		flushScheduled = true;
		try {
			redis.resources().eventExecutorGroup().schedule(this::flush, delayMicros, TimeUnit.MICROSECONDS);
		}
		catch (RejectedExecutionException closing) {
			flushScheduled = false;
		}
	}

	/**
	 * Sends the settles that waited {@value #SETTLE_LINGER_MICROS} µs for a request to ride with; those a request
	 * took meanwhile are gone, and younger ones wait out their own linger.
	 */
	private void flush() {
		List<Settle> ready;
		synchronized (lock) {
			flushScheduled = false;
			if (pending.isEmpty()) {
				return;
			}
			long waitedMicros = (System.nanoTime() - oldestPendingNanos) / 1000;
			if (waitedMicros < SETTLE_LINGER_MICROS) {
				scheduleFlush(SETTLE_LINGER_MICROS - waitedMicros);
				return;
			}
			ready = pending;
			pending = new ArrayList<>();
		}
		if (!ready.isEmpty()) {
			send(new Call(ready, clock.instant()));
		}
	}

	private List<Settle> takePending() {
		synchronized (lock) {
			if (pending.isEmpty()) {
				return List.of();
			}
			List<Settle> taken = pending;
			pending = new ArrayList<>();
			return taken;
		}
	}

	private CompletionStage<List<Long>> send(Call call) {
		return redis.run(SCRIPT, call.keys(), call.args()).whenComplete((values, ex) -> {
			if (ex != null) {
				if (!call.settles.isEmpty()) {
					logger.debug("Could not settle " + call.settles.size()
							+ " budget holds in Redis (they expire there by themselves): " + ex);
				}
				return;
			}
			call.tellReached(values, listener);
		});
	}

	@Override
	public void close() {
		List<Settle> last = takePending();
		try {
			if (!last.isEmpty()) {
				send(new Call(last, clock.instant())).toCompletableFuture().get(1, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException ex) {
			logger.debug("The last budget settles did not reach Redis before closing: " + ex);
		}
	}

	private record Settle(BudgetHold hold, List<BudgetPeriod.Window> windows, long costNanos) {
	}

	/** One call of {@code budgets.lua}: settles, then at most one request. */
	private final class Call {

		private final List<Settle> settles;

		private final Instant now;

		private final Map<String, Integer> keys = new LinkedHashMap<>();

		private final List<String> args = new ArrayList<>();

		private final List<String> request = new ArrayList<>();

		private Call(List<Settle> settles, Instant now) {
			this.settles = settles;
			this.now = now;
			args.add(Long.toString(now.toEpochMilli()));
			args.add(Long.toString(BudgetPeriod.minute(now)));
			args.add(Integer.toString(settles.size()));
			for (Settle settle : settles) {
				BudgetHold hold = settle.hold;
				List<BudgetLine> lines = hold.lines();
				args.add(Integer.toString(lines.size()));
				for (int i = 0; i < lines.size(); i++) {
					BudgetLine line = lines.get(i);
					BudgetPeriod.Window window = settle.windows.get(i);
					long held = BudgetHold.heldBy(line, hold.maxCostNanos());
					args.add(Integer.toString(key(line, window)));
					args.add(line.budget().period().rolling() ? "1" : "0");
					args.add((held > 0) ? hold.leaseId() + ":" + held : "");
					args.add(Long.toString(held));
					args.add(Long.toString(settle.costNanos));
					args.add(Long.toString(BudgetPeriod.minute(hold.at())));
					args.add(Long.toString(line.budget().amountNanos()));
					args.add(Long.toString(ttlMillis(line, window)));
				}
			}
		}

		/** Adds the request; the windows of its lines at {@code now}. */
		List<BudgetPeriod.Window> request(String mode, List<BudgetLine> lines, long costNanos, String leaseId,
				long holdExpiry) {
			List<BudgetPeriod.Window> windows = new ArrayList<>(lines.size());
			request.add(mode);
			request.add(Long.toString(costNanos));
			request.add(leaseId);
			request.add(Long.toString(holdExpiry));
			request.add(Integer.toString(lines.size()));
			for (BudgetLine line : lines) {
				BudgetPeriod.Window window = line.budget().period().window(now, zone);
				windows.add(window);
				request.add(Integer.toString(key(line, window)));
				request.add(line.budget().period().rolling() ? "1" : "0");
				request.add(line.budget().hard() ? "1" : "0");
				request.add(Long.toString(line.budget().amountNanos()));
				request.add(Long.toString(ttlMillis(line, window)));
			}
			return windows;
		}

		private long ttlMillis(BudgetLine line, BudgetPeriod.Window window) {
			if (window.end() == null) {
				return ROLLING_TTL_MILLIS;
			}
			return Math.max(DAY_MILLIS, window.end().toEpochMilli() - now.toEpochMilli() + DAY_MILLIS);
		}

		/** The 1-based index of the hash of {@code line}'s window; its holds are the next key. */
		private int key(BudgetLine line, BudgetPeriod.Window window) {
			String hash = keyPrefix + line.counterKey() + ":" + window.id();
			Integer index = keys.get(hash);
			if (index == null) {
				index = keys.size() + 1;
				keys.put(hash, index);
				keys.put(hash + ":holds", index + 1);
			}
			return index;
		}

		List<String> keys() {
			return new ArrayList<>(keys.keySet());
		}

		List<String> args() {
			List<String> all = new ArrayList<>(args.size() + Math.max(1, request.size()));
			all.addAll(args);
			if (request.isEmpty()) {
				all.add("none");
			}
			else {
				all.addAll(request);
			}
			return all;
		}

		/** Values in the reply before the request's: two per settled line. */
		int settleValues() {
			int values = 0;
			for (Settle settle : settles) {
				values += 2 * settle.hold.lines().size();
			}
			return values;
		}

		void tellReached(List<Long> values, BudgetListener listener) {
			int at = 0;
			for (Settle settle : settles) {
				List<BudgetLine> lines = settle.hold.lines();
				for (int i = 0; i < lines.size(); i++) {
					if (values.get(at) == 1) {
						try {
							listener.reached(lines.get(i), settle.windows.get(i), values.get(at + 1));
						}
						catch (RuntimeException ex) {
							logger.warn("A budget listener failed: " + ex, ex);
						}
					}
					at += 2;
				}
			}
		}
	}
}
