package io.infergate.routing.limits;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * Limit counters in this replica's memory: exact for one replica, and the fallback of the Redis store when Redis
 * cannot be reached. One counter object per bucket holds its request and token arrival times and its in-flight
 * count; a request locks its (at most four) buckets in one global order, so a check-and-reserve over several
 * buckets is atomic without a store-wide lock. Buckets are created on first use and never dropped: there is one
 * per configured key, tenant and served model, and per key × model called.
 */
public final class MemoryRateLimitStore implements RateLimitStore {

	private final ConcurrentHashMap<Bucket, Counter> counters = new ConcurrentHashMap<>();

	private final AtomicLong ordinals = new AtomicLong();

	private final LongSupplier clockMicros;

	private final long parallelRetryMicros;

	/**
	 * @param clockMicros a monotonic clock in microseconds
	 * @param parallelRetry the wait suggested to a request refused by a max-parallel limit, whose capacity frees
	 * when some request in flight ends
	 */
	public MemoryRateLimitStore(LongSupplier clockMicros, Duration parallelRetry) {
		this.clockMicros = clockMicros;
		this.parallelRetryMicros = Math.max(1, parallelRetry.toNanos() / 1000);
	}

	/** Counters on {@link System#nanoTime()}. */
	public MemoryRateLimitStore(Duration parallelRetry) {
		this(() -> System.nanoTime() / 1000, parallelRetry);
	}

	@Override
	public String name() {
		return "memory";
	}

	@Override
	public CompletionStage<Reservation> reserve(List<Bucket> buckets, long tokens) {
		return CompletableFuture.completedFuture(reserveNow(buckets, tokens));
	}

	/** {@link #reserve} without the future. */
	public Reservation reserveNow(List<Bucket> buckets, long tokens) {
		Counter[] locked = lockInOrder(buckets);
		try {
			double now = clockMicros.getAsLong();
			Evaluation evaluation = new Evaluation(buckets, tokens);
			for (int i = 0; i < buckets.size(); i++) {
				evaluate(evaluation, buckets.get(i), counterOf(buckets.get(i)), tokens, now);
			}
			if (!evaluation.refused()) {
				for (Bucket bucket : buckets) {
					counterOf(bucket).commit(bucket, tokens, now);
				}
			}
			return evaluation.finish(this, null);
		}
		finally {
			unlock(locked);
		}
	}

	private void evaluate(Evaluation evaluation, Bucket bucket, Counter counter, long tokens, double now) {
		if (bucket.rpm() > 0) {
			evaluateRate(evaluation, bucket, LimitKind.RPM, counter.requestTat, tokens, now);
		}
		if (bucket.tpm() > 0) {
			evaluateRate(evaluation, bucket, LimitKind.TPM, counter.tokenTat, tokens, now);
		}
		if (bucket.maxParallel() > 0) {
			long free = bucket.maxParallel() - counter.inFlight;
			evaluation.add(bucket, LimitKind.MAX_PARALLEL, 1, Math.max(0, free), Math.max(0, free - 1), 0, 0,
					(free > 0) ? 0 : parallelRetryMicros);
		}
	}

	private static void evaluateRate(Evaluation evaluation, Bucket bucket, LimitKind kind, double tat, long tokens,
			double now) {
		long limit = bucket.limit(kind);
		double interval = Gcra.intervalMicros(limit);
		long cost = Gcra.cost(kind, limit, tokens);
		double start = Math.max(tat, now);
		double next = start + cost * interval;
		double wait = next - now - Gcra.PERIOD_MICROS;
		evaluation.add(bucket, kind, cost, Gcra.remaining(start, now, interval), Gcra.remaining(next, now, interval),
				(long) Math.ceil(start - now), (long) Math.ceil(next - now), (wait > 0) ? (long) Math.ceil(wait) : 0);
	}

	@Override
	public void release(Reservation reservation, long actualTokens) {
		double now = clockMicros.getAsLong();
		for (Bucket bucket : reservation.buckets()) {
			if (bucket.tpm() == 0 && bucket.maxParallel() == 0) {
				continue;
			}
			Counter counter = counterOf(bucket);
			counter.lock();
			try {
				if (bucket.tpm() > 0) {
					long reserved = Gcra.cost(LimitKind.TPM, bucket.tpm(), reservation.tokens());
					counter.tokenTat = Gcra.corrected(counter.tokenTat, now, Gcra.intervalMicros(bucket.tpm()),
							Math.max(0, actualTokens) - reserved);
				}
				if (bucket.maxParallel() > 0 && counter.inFlight > 0) {
					counter.inFlight--;
				}
			}
			finally {
				counter.unlock();
			}
		}
	}

	@Override
	public CompletionStage<List<LimitState>> read(List<Bucket> buckets) {
		List<LimitState> states = new ArrayList<>();
		for (Bucket bucket : buckets) {
			Counter counter = counterOf(bucket);
			counter.lock();
			try {
				double now = clockMicros.getAsLong();
				if (bucket.rpm() > 0) {
					states.add(state(bucket, LimitKind.RPM, counter.requestTat, now));
				}
				if (bucket.tpm() > 0) {
					states.add(state(bucket, LimitKind.TPM, counter.tokenTat, now));
				}
				if (bucket.maxParallel() > 0) {
					states.add(new LimitState(bucket, LimitKind.MAX_PARALLEL, bucket.maxParallel(),
							Math.max(0, bucket.maxParallel() - counter.inFlight), 0, 0, 0));
				}
			}
			finally {
				counter.unlock();
			}
		}
		return CompletableFuture.completedFuture(states);
	}

	private static LimitState state(Bucket bucket, LimitKind kind, double tat, double now) {
		long limit = bucket.limit(kind);
		return new LimitState(bucket, kind, limit, Gcra.remaining(tat, now, Gcra.intervalMicros(limit)),
				(long) Math.ceil(Math.max(0, tat - now)), 0, 0);
	}

	private Counter counterOf(Bucket bucket) {
		Counter counter = counters.get(bucket);
		return (counter != null) ? counter
				: counters.computeIfAbsent(bucket, (key) -> new Counter(ordinals.incrementAndGet()));
	}

	private Counter[] lockInOrder(List<Bucket> buckets) {
		Counter[] order = new Counter[buckets.size()];
		for (int i = 0; i < order.length; i++) {
			Counter counter = counterOf(buckets.get(i));
			int j = i;
			while (j > 0 && order[j - 1].ordinal > counter.ordinal) {
				order[j] = order[j - 1];
				j--;
			}
			order[j] = counter;
		}
		Counter previous = null;
		for (Counter counter : order) {
			if (counter != previous) {
				counter.lock();
			}
			previous = counter;
		}
		return order;
	}

	private static void unlock(Counter[] order) {
		Counter previous = null;
		for (Counter counter : order) {
			if (counter != previous) {
				counter.unlock();
			}
			previous = counter;
		}
	}

	/** One bucket's counters, guarded by its own lock. */
	private static final class Counter extends ReentrantLock {

		final long ordinal;

		double requestTat = Double.NEGATIVE_INFINITY;

		double tokenTat = Double.NEGATIVE_INFINITY;

		int inFlight;

		Counter(long ordinal) {
			this.ordinal = ordinal;
		}

		void commit(Bucket bucket, long tokens, double now) {
			if (bucket.rpm() > 0) {
				requestTat = Math.max(requestTat, now) + Gcra.intervalMicros(bucket.rpm());
			}
			if (bucket.tpm() > 0) {
				tokenTat = Math.max(tokenTat, now)
						+ Gcra.cost(LimitKind.TPM, bucket.tpm(), tokens) * Gcra.intervalMicros(bucket.tpm());
			}
			if (bucket.maxParallel() > 0) {
				inFlight++;
			}
		}
	}
}
