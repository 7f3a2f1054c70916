package io.infergate.routing.limits;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Where limit counters live: this replica's memory, or Redis for every replica. Every implementation runs the
 * algorithm of {@link Gcra} for per-minute limits and a lease count for max-parallel limits.
 */
public interface RateLimitStore {

	/** {@code memory} or {@code redis}, for logs and metrics. */
	String name();

	/**
	 * Checks {@code tokens} (each TPM limit takes at most its own size) and one request against every limit of
	 * {@code buckets}, and reserves all of them or none, atomically. Completes exceptionally only when the store
	 * cannot be reached.
	 */
	CompletionStage<Reservation> reserve(List<Bucket> buckets, long tokens);

	/**
	 * Gives back what an admitted reservation holds: corrects its TPM limits by {@code actualTokens − reserved}
	 * and ends its max-parallel lease. Never throws; a failure is logged.
	 */
	void release(Reservation reservation, long actualTokens);

	/** Each limit of {@code buckets} as it stands now, for reports; nothing is reserved. */
	CompletionStage<List<LimitState>> read(List<Bucket> buckets);
}
