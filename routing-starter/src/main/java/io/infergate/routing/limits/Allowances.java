package io.infergate.routing.limits;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Capacity this replica has taken from the Redis counters ahead of its requests, so that most requests against a
 * large limit are decided here, without a call. Nothing is ever admitted beyond a limit: every unit of an allowance
 * was reserved in Redis, atomically with an admitted request, before it is spent here.
 * <ul>
 * <li><b>Size.</b> A request that goes to Redis asks, for each of its counters whose allowance runs low, for
 * {@code share} of the limit ({@code infergate.rate-limits.redis-allowance}, at most {@value #MAX_SLOTS_PER_GRANT}
 * leases of a max-parallel limit). Redis grants at most half of what remains after the request, so allowances
 * shrink as a counter fills and vanish near its limit, where every request is decided in Redis again. A share under
 * 2 units is never asked for: small limits are always decided per request.</li>
 * <li><b>Spending.</b> A request is admitted here only when every one of its counters has an allowance that covers
 * it (one request, its tokens, one max-parallel lease); otherwise it goes to Redis whole. Tokens a request reserved
 * and did not use go back into the allowance; tokens it used beyond its reservation come out of it, and what the
 * allowance cannot cover goes to Redis.</li>
 * <li><b>Giving back.</b> An allowance unused for {@code idle} is given back to Redis (per-minute units as a
 * correction, leases ended), and so is all of it when the store closes. A max-parallel lease is handed to a new
 * request only while at least half of its {@code lease-timeout} remains, and ended when it is older.</li>
 * <li><b>Redis lost.</b> When the connection drops, every allowance is forgotten (its units count as used in Redis
 * until they expire there) and requests go to Redis, and so to {@code on-store-failure}, until it is back.</li>
 * </ul>
 * The headers of a request admitted here report the counter as this replica last saw it in Redis, refilled since,
 * less what it has spent since: between two calls, other replicas' use is not seen.
 * <p>
 * Not thread-safe: {@link RedisRateLimitStore} calls it under its lock.
 */
final class Allowances {

	/** At most this many max-parallel leases are asked for at once. */
	static final int MAX_SLOTS_PER_GRANT = 64;

	private final double share;

	private final long idleNanos;

	private final long leaseNanos;

	/** Per bucket, its counters' allowances by {@link LimitKind#ordinal()}: no key is built to find one. */
	private final Map<Bucket, Allowance[]> byBucket = new HashMap<>();

	private long epoch;

	/**
	 * @param share the part of a limit to ask for at once; 0 asks for nothing, so every request goes to Redis
	 * @param idleNanos how long an allowance may go unused before it is given back
	 * @param leaseNanos how long a max-parallel lease lives in Redis
	 */
	Allowances(double share, long idleNanos, long leaseNanos) {
		this.share = share;
		this.idleNanos = idleNanos;
		this.leaseNanos = leaseNanos;
	}

	/** Units of {@code limit} to ask for at once: 0 when the share is under 2 units. */
	long wanted(LimitKind kind, long limit) {
		long want = (long) Math.floor(limit * share);
		if (kind == LimitKind.MAX_PARALLEL) {
			want = Math.min(want, MAX_SLOTS_PER_GRANT);
		}
		return (want >= 2) ? want : 0;
	}

	/** Whether any allowance is held, so that a request may be admitted here. */
	boolean isEmpty() {
		return byBucket.isEmpty();
	}

	private Allowance find(Bucket bucket, LimitKind kind) {
		Allowance[] kinds = byBucket.get(bucket);
		return (kinds != null) ? kinds[kind.ordinal()] : null;
	}

	private Allowance findOrCreate(Bucket bucket, LimitKind kind, long limit, long now) {
		Allowance[] kinds = byBucket.computeIfAbsent(bucket, (key) -> new Allowance[LimitKind.values().length]);
		Allowance allowance = kinds[kind.ordinal()];
		if (allowance == null) {
			allowance = new Allowance(kind, limit, now);
			kinds[kind.ordinal()] = allowance;
		}
		return allowance;
	}

	/**
	 * Admits the request with its units taken from the allowances, or returns {@code null}, taking nothing, when one
	 * of its counters has no allowance that covers it.
	 */
	Reservation take(RateLimitStore store, List<Bucket> buckets, long tokens, long now) {
		if (byBucket.isEmpty()) {
			return null;
		}
		for (Bucket bucket : buckets) {
			Allowance[] kinds = byBucket.get(bucket);
			for (LimitKind kind : LimitKind.values()) {
				long limit = bucket.limit(kind);
				if (limit > 0) {
					Allowance allowance = (kinds != null) ? kinds[kind.ordinal()] : null;
					if (allowance == null || !allowance.covers(Gcra.cost(kind, limit, tokens), now, leaseNanos)) {
						return null;
					}
				}
			}
		}
		Evaluation evaluation = new Evaluation(buckets, tokens);
		Hold hold = new Hold(epoch, new Slot[buckets.size()]);
		for (int b = 0; b < buckets.size(); b++) {
			Bucket bucket = buckets.get(b);
			Allowance[] kinds = byBucket.get(bucket);
			for (LimitKind kind : LimitKind.values()) {
				long limit = bucket.limit(kind);
				if (limit <= 0) {
					continue;
				}
				Allowance allowance = kinds[kind.ordinal()];
				allowance.lastUsed = now;
				if (kind == LimitKind.MAX_PARALLEL) {
					hold.slots[b] = allowance.free.poll();
					long free = allowance.free.size() + 1;
					evaluation.add(bucket, kind, 1, free, free - 1, 0, 0, 0);
				}
				else {
					long cost = Gcra.cost(kind, limit, tokens);
					double interval = Gcra.intervalMicros(limit);
					long elapsed = Math.max(0, (now - allowance.seen) / 1000);
					long remaining = Math.min(limit,
							allowance.remainingSeen + (long) (elapsed / interval) + allowance.units);
					long reset = Math.max(0, (long) (allowance.resetSeenMicros - elapsed - allowance.units * interval));
					allowance.units -= cost;
					evaluation.add(bucket, kind, cost, remaining, Math.max(0, remaining - cost), reset,
							(long) Math.min(Gcra.PERIOD_MICROS, reset + cost * interval), 0);
				}
			}
		}
		return evaluation.finish(store, null, hold);
	}

	/**
	 * What a request going to Redis should ask for, per counter in the order of {@link LimitsCall#addRequest}, or
	 * {@code null} for nothing; each counter asked for is marked so that one request at a time asks for it.
	 */
	long[] wants(List<Bucket> buckets, long now) {
		if (share <= 0) {
			return null;
		}
		long[] wants = null;
		int at = 0;
		int counters = 0;
		for (Bucket bucket : buckets) {
			for (LimitKind kind : LimitKind.values()) {
				if (bucket.limit(kind) > 0) {
					counters++;
				}
			}
		}
		for (Bucket bucket : buckets) {
			for (LimitKind kind : LimitKind.values()) {
				long limit = bucket.limit(kind);
				if (limit <= 0) {
					continue;
				}
				long want = wanted(kind, limit);
				if (want > 0) {
					Allowance allowance = findOrCreate(bucket, kind, limit, now);
					if (!allowance.asking && allowance.held() < want / 2) {
						allowance.asking = true;
						if (wants == null) {
							wants = new long[counters];
						}
						wants[at] = want;
					}
				}
				at++;
			}
		}
		return wants;
	}

	/**
	 * Takes in what Redis granted with a request that asked for {@code wants} ({@code values}: the request's slice of
	 * the reply), and what it says of each counter that has an allowance. A grant whose allowance was forgotten
	 * meanwhile goes back to Redis through {@code call}.
	 */
	void granted(LimitsCall call, String keyPrefix, List<Bucket> buckets, long[] wants, List<Long> values,
			String leaseId, long now) {
		boolean admitted = values.get(0) == 1;
		int at = 0;
		int value = 1;
		for (Bucket bucket : buckets) {
			for (LimitKind kind : LimitKind.values()) {
				long limit = bucket.limit(kind);
				if (limit <= 0) {
					continue;
				}
				Allowance allowance = find(bucket, kind);
				long want = (wants != null) ? wants[at] : 0;
				long grant = values.get(value + 6);
				if (allowance == null && grant > 0) {
					giveBackGrant(call, keyPrefix + bucket.storeKey(kind), kind, limit, leaseId, grant);
				}
				if (allowance != null) {
					if (want > 0) {
						allowance.asking = false;
					}
					if (grant > 0) {
						allowance.lastUsed = now;
						if (kind == LimitKind.MAX_PARALLEL) {
							for (long g = 1; g <= grant; g++) {
								allowance.free.add(new Slot(leaseId + ":" + g, now + leaseNanos));
							}
						}
						else {
							allowance.units += grant;
						}
					}
					if (kind != LimitKind.MAX_PARALLEL) {
						double interval = Gcra.intervalMicros(limit);
						allowance.seen = now;
						allowance.remainingSeen = admitted ? Math.max(0, values.get(value + 1) - grant)
								: values.get(value);
						allowance.resetSeenMicros = admitted ? (long) (values.get(value + 3) + grant * interval)
								: values.get(value + 2);
					}
				}
				at++;
				value += LimitsCall.VALUES_PER_COUNTER;
			}
		}
	}

	private static void giveBackGrant(LimitsCall call, String key, LimitKind kind, long limit, String leaseId,
			long grant) {
		if (kind == LimitKind.MAX_PARALLEL) {
			for (long g = 1; g <= grant; g++) {
				call.endLease(key, limit, leaseId + ":" + g);
			}
		}
		else {
			call.correct(key, kind, limit, -grant);
		}
		call.countRelease();
	}

	/** A call that asked for {@code wants} failed: nothing was granted, and others may ask again. */
	void notGranted(List<Bucket> buckets, long[] wants) {
		if (wants == null) {
			return;
		}
		int at = 0;
		for (Bucket bucket : buckets) {
			for (LimitKind kind : LimitKind.values()) {
				if (bucket.limit(kind) > 0) {
					Allowance allowance = (wants[at] > 0) ? find(bucket, kind) : null;
					if (allowance != null) {
						allowance.asking = false;
					}
					at++;
				}
			}
		}
	}

	/**
	 * Settles a finished request: its unused tokens go back into the token allowances and its leases taken here
	 * back to their pools; what cannot be settled here goes into {@code call} for Redis.
	 */
	void release(LimitsCall call, String keyPrefix, Reservation reservation, long actualTokens, long now) {
		long actual = Math.max(0, actualTokens);
		Hold hold = (reservation.storeHandle() instanceof Hold held) ? held : null;
		boolean toRedis = false;
		List<Bucket> buckets = reservation.buckets();
		for (int b = 0; b < buckets.size(); b++) {
			Bucket bucket = buckets.get(b);
			if (bucket.tpm() > 0) {
				long delta = actual - Gcra.cost(LimitKind.TPM, bucket.tpm(), reservation.tokens());
				Allowance allowance = find(bucket, LimitKind.TPM);
				if (allowance != null) {
					allowance.units -= delta;
					delta = 0;
					if (allowance.units < 0) {
						delta = -allowance.units;
						allowance.units = 0;
					}
				}
				if (delta != 0) {
					call.correct(keyPrefix + bucket.storeKey(LimitKind.TPM), LimitKind.TPM, bucket.tpm(), delta);
					toRedis = true;
				}
			}
			if (bucket.maxParallel() > 0) {
				Slot slot = (hold != null) ? hold.slots[b] : null;
				if (slot == null) {
					call.endLease(keyPrefix + bucket.storeKey(LimitKind.MAX_PARALLEL), bucket.maxParallel(),
							reservation.leaseId());
					toRedis = true;
					continue;
				}
				Allowance allowance = find(bucket, LimitKind.MAX_PARALLEL);
				if (allowance != null && hold.epoch == epoch && slot.fresh(now, leaseNanos)) {
					allowance.free.push(slot);
				}
				else {
					call.endLease(keyPrefix + bucket.storeKey(LimitKind.MAX_PARALLEL), bucket.maxParallel(), slot.id);
					toRedis = true;
				}
			}
		}
		if (toRedis) {
			call.countRelease();
		}
	}

	/**
	 * Gives back to Redis, through {@code call}, the allowances unused since {@code idle} before {@code now}, and the
	 * leases too old to hand out; {@code all} gives back everything (the store closes). Returns whether anything
	 * went into {@code call}.
	 */
	boolean giveBack(LimitsCall call, String keyPrefix, long now, boolean all) {
		boolean any = false;
		for (Iterator<Map.Entry<Bucket, Allowance[]>> it = byBucket.entrySet().iterator(); it.hasNext();) {
			Map.Entry<Bucket, Allowance[]> entry = it.next();
			Allowance[] kinds = entry.getValue();
			boolean anyLeft = false;
			for (int k = 0; k < kinds.length; k++) {
				Allowance allowance = kinds[k];
				if (allowance == null) {
					continue;
				}
				String key = keyPrefix + entry.getKey().storeKey(allowance.kind);
				boolean idle = all || (!allowance.asking && now - allowance.lastUsed > idleNanos);
				if (allowance.kind == LimitKind.MAX_PARALLEL) {
					for (Iterator<Slot> slots = allowance.free.iterator(); slots.hasNext();) {
						Slot slot = slots.next();
						if (idle || !slot.fresh(now, leaseNanos)) {
							slots.remove();
							call.endLease(key, allowance.limit, slot.id);
							any = true;
						}
					}
				}
				else if (idle && allowance.units > 0) {
					call.correct(key, allowance.kind, allowance.limit, -allowance.units);
					allowance.units = 0;
					any = true;
				}
				if (idle) {
					kinds[k] = null;
				}
				else {
					anyLeft = true;
				}
			}
			if (!anyLeft) {
				it.remove();
			}
		}
		if (any) {
			call.countRelease();
		}
		return any;
	}

	/**
	 * Forgets every allowance: Redis was lost, so what it granted may be gone with it. Leases taken here and still in
	 * use are ended in Redis when their requests finish.
	 */
	void forget() {
		byBucket.clear();
		epoch++;
	}

	/** The leases and units held for one counter. */
	private static final class Allowance {

		private final LimitKind kind;

		private final long limit;

		private final ArrayDeque<Slot> free;

		private long units;

		private long lastUsed;

		private boolean asking;

		private long seen;

		private long remainingSeen;

		private long resetSeenMicros;

		private Allowance(LimitKind kind, long limit, long now) {
			this.kind = kind;
			this.limit = limit;
			this.free = (kind == LimitKind.MAX_PARALLEL) ? new ArrayDeque<>() : null;
			this.lastUsed = now;
			this.seen = now;
		}

		private long held() {
			return (free != null) ? free.size() : units;
		}

		private boolean covers(long cost, long now, long leaseNanos) {
			if (free == null) {
				return units >= cost;
			}
			// a lease too old to start on waits at the head for giveBack, and requests go to Redis meanwhile
			return !free.isEmpty() && free.peek().fresh(now, leaseNanos);
		}
	}

	/** A max-parallel lease held here: free in a pool, or lent to one request. */
	private record Slot(String id, long expires) {

		/** Whether at least half of its life remains, so that a request may still start on it. */
		boolean fresh(long now, long leaseNanos) {
			return expires - now >= leaseNanos / 2;
		}
	}

	/**
	 * What a request admitted here holds: the lease it took from each max-parallel counter's pool, by the index of
	 * its bucket in the reservation's buckets.
	 */
	record Hold(long epoch, Slot[] slots) {
	}
}
