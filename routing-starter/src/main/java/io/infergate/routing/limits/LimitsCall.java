package io.infergate.routing.limits;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * What one call of {@code limits.lua} carries to Redis: the releases of finished requests, then the requests to check
 * and reserve, in the order they were added. Redis applies the releases and then answers each request as one call
 * per request, one after the other, would have, reading and writing each counter once for the whole call.
 * <p>
 * Releases are summed per counter: a token counter moves once by the summed (actual - reserved) tokens of every
 * release, and a max-parallel counter ends all the releases' leases at once. Summing moves a counter as far as the
 * releases one by one would, except that a refund is clamped at "full" once for the call rather than after each
 * release: refunds and overdrafts of the same counter end as their net.
 * <p>
 * Not thread-safe: the store fills one under its lock and sends it once taken out.
 */
final class LimitsCall {

	/**
	 * Values per counter of a request in the reply: remaining before, remaining after, reset before (µs), reset after
	 * (µs), retry after (µs), requested units, and the units granted to this replica's allowance.
	 */
	static final int VALUES_PER_COUNTER = 7;

	private final Map<String, Counter> counters = new LinkedHashMap<>();

	private final List<String> requestArgs = new ArrayList<>();

	private final List<Pending> requests = new ArrayList<>();

	private int releases;

	/**
	 * Adds a request needing {@code tokens} against {@code buckets}, whose counters are under {@code keyPrefix};
	 * {@code commit} false only reads the counters. {@code wants} (or {@code null} for none) asks, per counter of the
	 * request (buckets in order, each's RPM, TPM and max-parallel counters that are limited), for that many units
	 * more for this replica's {@link Allowances}, granted only with an admitted request. {@link #complete(List)} gives {@code answer} the
	 * request's slice of the script's reply: the verdict, then {@value #VALUES_PER_COUNTER} values per counter.
	 */
	void addRequest(String keyPrefix, List<Bucket> buckets, long tokens, String leaseId, boolean commit,
			long[] wants, CompletableFuture<List<Long>> answer) {
		List<String> indexes = new ArrayList<>(buckets.size() * 2);
		for (Bucket bucket : buckets) {
			for (LimitKind kind : LimitKind.values()) {
				if (bucket.limit(kind) > 0) {
					indexes.add(Integer.toString(counter(keyPrefix + bucket.storeKey(kind), kind, bucket.limit(kind)).index));
				}
			}
		}
		requestArgs.add(Long.toString(tokens));
		requestArgs.add(leaseId);
		requestArgs.add(commit ? "1" : "0");
		requestArgs.add(Integer.toString(indexes.size()));
		requestArgs.addAll(indexes);
		for (int i = 0; i < indexes.size(); i++) {
			requestArgs.add((wants != null) ? Long.toString(wants[i]) : "0");
		}
		requests.add(new Pending(1 + VALUES_PER_COUNTER * indexes.size(), answer));
	}

	/** Moves the per-minute counter {@code key} by {@code deltaUnits}: a token correction, or units given back. */
	void correct(String key, LimitKind kind, long limit, long deltaUnits) {
		counter(key, kind, limit).correction += deltaUnits;
	}

	/** Ends the lease {@code leaseId} on the max-parallel counter {@code key}. */
	void endLease(String key, long limit, String leaseId) {
		counter(key, LimitKind.MAX_PARALLEL, limit).endedLeases.add(leaseId);
	}

	/** Counts one more release (or return of an allowance) carried by the call. */
	void countRelease() {
		releases++;
	}

	private Counter counter(String key, LimitKind kind, long limit) {
		return counters.computeIfAbsent(key, (name) -> new Counter(counters.size() + 1, kind, limit));
	}

	/** The requests to check and reserve. */
	int requests() {
		return requests.size();
	}

	/** The requests whose releases this call carries. */
	int releases() {
		return releases;
	}

	boolean isEmpty() {
		return requests.isEmpty() && releases == 0;
	}

	/** The counters, each once. */
	List<String> keys() {
		return new ArrayList<>(counters.keySet());
	}

	/**
	 * The script's arguments: lease timeout and retry hint; per counter its kind, limit and what the releases give
	 * back; then the requests.
	 */
	List<String> args(long leaseMicros, long parallelRetryMicros) {
		List<String> args = new ArrayList<>(2 + counters.size() * 4 + releases + requestArgs.size());
		args.add(Long.toString(leaseMicros));
		args.add(Long.toString(parallelRetryMicros));
		for (Counter counter : counters.values()) {
			args.add(counter.kind.configName());
			args.add(Long.toString(counter.limit));
			if (counter.kind == LimitKind.MAX_PARALLEL) {
				args.add(Integer.toString(counter.endedLeases.size()));
				args.addAll(counter.endedLeases);
			}
			else if (counter.correction != 0) {
				args.add("1");
				args.add(Long.toString(counter.correction));
			}
			else {
				args.add("0");
			}
		}
		args.addAll(requestArgs);
		return args;
	}

	/** Gives each request its slice of the script's {@code reply}, or fails them all when it is not whole. */
	void complete(List<Long> reply) {
		int expected = 0;
		for (Pending request : requests) {
			expected += request.values;
		}
		int got = (reply != null) ? reply.size() : 0;
		if (got != expected) {
			fail(new IllegalStateException("limits.lua answered " + got + " values for " + requests.size()
					+ " requests that need " + expected));
			return;
		}
		int at = 0;
		for (Pending request : requests) {
			request.answer.complete(reply.subList(at, at + request.values));
			at += request.values;
		}
	}

	/** Fails every request of the call; its releases are lost, and their counters expire by themselves. */
	void fail(Throwable failure) {
		for (Pending request : requests) {
			request.answer.completeExceptionally(failure);
		}
	}

	private static final class Counter {

		private final int index;

		private final LimitKind kind;

		private final long limit;

		private long correction;

		private final List<String> endedLeases = new ArrayList<>(0);

		private Counter(int index, LimitKind kind, long limit) {
			this.index = index;
			this.kind = kind;
			this.limit = limit;
		}
	}

	private record Pending(int values, CompletableFuture<List<Long>> answer) {
	}
}
