package io.infergate.routing.limits;

/**
 * The generic cell rate algorithm (GCRA) behind every per-minute limit, as the memory store runs it and the Redis
 * store's script mirrors it. A limit of N per minute is a bucket of N units that refills continuously at N per
 * minute, one unit every {@code T = 60 s / N}; the state is one number, the theoretical arrival time {@code tat}:
 * the instant at which the bucket will be full again.
 * <ul>
 * <li>A request costing {@code c} units at {@code now} is admitted iff {@code max(tat, now) + c·T − now ≤ 60 s}, and
 * then {@code tat} becomes {@code max(tat, now) + c·T}. A full bucket therefore admits a burst of N at once, and
 * then one unit every T.</li>
 * <li>A refused request may retry after {@code max(tat, now) + c·T − now − 60 s}: the instant its cost fits.</li>
 * <li>Units remaining: {@code ⌊(60 s − (tat − now)) / T⌋}; the bucket is full again after {@code tat − now}.</li>
 * <li>A token reservation corrected at the end by {@code d} units moves {@code tat} by {@code d·T}, never below
 * {@code now} (a refund cannot fill the bucket beyond full); a request that used more than it reserved leaves the
 * bucket in debt, and the next requests wait for it.</li>
 * </ul>
 * A request never reserves more tokens than the bucket holds, so a request larger than a TPM limit is admitted
 * when the bucket is full rather than never.
 */
final class Gcra {

	/** Every limit is per minute. */
	static final double PERIOD_MICROS = 60_000_000d;

	private Gcra() {
	}

	/** Microseconds between two units of a limit of {@code limit} per minute. */
	static double intervalMicros(long limit) {
		return PERIOD_MICROS / limit;
	}

	/** Units a request reserves: one request, or its tokens, at most the whole bucket. */
	static long cost(LimitKind kind, long limit, long tokens) {
		return (kind == LimitKind.RPM) ? 1 : Math.max(0, Math.min(tokens, limit));
	}

	/** Units left in a bucket whose theoretical arrival time is {@code tat}. */
	static long remaining(double tat, double now, double interval) {
		double free = PERIOD_MICROS - Math.max(0, tat - now);
		return (free <= 0) ? 0 : (long) Math.floor(free / interval + 1e-9);
	}

	/** The theoretical arrival time after correcting a reservation by {@code deltaUnits}. */
	static double corrected(double tat, double now, double interval, long deltaUnits) {
		return Math.max(now, Math.max(tat, now) + deltaUnits * interval);
	}
}
