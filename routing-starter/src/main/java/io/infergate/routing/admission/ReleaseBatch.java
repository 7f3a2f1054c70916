package io.infergate.routing.admission;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Releases waiting to go to Redis in one call of {@code release.lua}: per token counter the corrections of every
 * request in the batch summed into one (so a batch of 50 requests of one key and tenant moves each counter once),
 * and per max-parallel counter the leases to end. Summing moves a counter as far as the requests one by one would,
 * except that a refund is clamped at "full" once for the batch rather than after each request: a batch that
 * refunds and overdraws the same counter ends as the net of both.
 * <p>
 * Not thread-safe: the store fills one under its lock and sends it once taken out.
 */
final class ReleaseBatch {

	private final Map<String, TokenCorrection> tokens = new LinkedHashMap<>();

	private final Map<String, List<String>> leases = new LinkedHashMap<>();

	private int releases;

	/** Adds the release of {@code reservation}, which used {@code actualTokens}, with counters under {@code keyPrefix}. */
	void add(String keyPrefix, Reservation reservation, long actualTokens) {
		long actual = Math.max(0, actualTokens);
		for (Bucket bucket : reservation.buckets()) {
			if (bucket.tpm() > 0) {
				long reserved = Gcra.cost(LimitKind.TPM, bucket.tpm(), reservation.tokens());
				tokens.computeIfAbsent(keyPrefix + bucket.storeKey(LimitKind.TPM),
						(key) -> new TokenCorrection(bucket.tpm())).units += actual - reserved;
			}
			if (bucket.maxParallel() > 0) {
				leases.computeIfAbsent(keyPrefix + bucket.storeKey(LimitKind.MAX_PARALLEL), (key) -> new ArrayList<>())
					.add(reservation.leaseId());
			}
		}
		releases++;
	}

	/** The requests whose releases this batch holds. */
	int releases() {
		return releases;
	}

	/** Whether sending it would change nothing. */
	boolean isEmpty() {
		return tokens.isEmpty() && leases.isEmpty();
	}

	/** The counters to settle, each once, in the order of {@link #args()}. */
	List<String> keys() {
		List<String> keys = new ArrayList<>(tokens.size() + leases.size());
		keys.addAll(tokens.keySet());
		keys.addAll(leases.keySet());
		return keys;
	}

	/**
	 * Per key of {@link #keys()}: {@code tpm, limit, correction} for a token counter, {@code max-parallel, n, lease...}
	 * for a max-parallel counter.
	 */
	List<String> args() {
		List<String> args = new ArrayList<>();
		tokens.forEach((key, correction) -> {
			args.add(LimitKind.TPM.configName());
			args.add(Long.toString(correction.limit));
			args.add(Long.toString(correction.units));
		});
		leases.forEach((key, ids) -> {
			args.add(LimitKind.MAX_PARALLEL.configName());
			args.add(Integer.toString(ids.size()));
			args.addAll(ids);
		});
		return args;
	}

	private static final class TokenCorrection {

		private final long limit;

		private long units;

		private TokenCorrection(long limit) {
			this.limit = limit;
		}
	}
}
