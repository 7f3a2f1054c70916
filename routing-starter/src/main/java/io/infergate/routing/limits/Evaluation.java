package io.infergate.routing.limits;

import java.util.List;

/**
 * Collects every limit's verdict on one request, then decides as both stores must: admitted only if no limit
 * refused; the headers report the most restrictive request and token limits (least remaining), and a refusal names
 * the limit that frees last (longest wait).
 */
final class Evaluation {

	private final List<Bucket> buckets;

	private final long tokens;

	private boolean refused;

	private LimitState requestsBefore, requestsAfter, tokensBefore, tokensAfter, denied;

	Evaluation(List<Bucket> buckets, long tokens) {
		this.buckets = buckets;
		this.tokens = tokens;
	}

	/** One limit's verdict: {@code retryAfterMicros > 0} when it refuses. */
	void add(Bucket bucket, LimitKind kind, long requested, long remainingBefore, long remainingAfter,
			long resetBeforeMicros, long resetAfterMicros, long retryAfterMicros) {
		long limit = bucket.limit(kind);
		if (retryAfterMicros > 0) {
			refused = true;
			if (denied == null || retryAfterMicros > denied.retryAfterMicros()) {
				denied = new LimitState(bucket, kind, limit, remainingBefore, resetBeforeMicros, retryAfterMicros,
						requested);
			}
		}
		if (kind == LimitKind.MAX_PARALLEL) {
			return;
		}
		LimitState before = new LimitState(bucket, kind, limit, remainingBefore, resetBeforeMicros, 0, requested);
		LimitState after = new LimitState(bucket, kind, limit, remainingAfter, resetAfterMicros, 0, requested);
		if (kind == LimitKind.RPM) {
			requestsBefore = tighter(requestsBefore, before);
			requestsAfter = tighter(requestsAfter, after);
		}
		else {
			tokensBefore = tighter(tokensBefore, before);
			tokensAfter = tighter(tokensAfter, after);
		}
	}

	boolean refused() {
		return refused;
	}

	Reservation finish(RateLimitStore store, String leaseId) {
		return finish(store, leaseId, null);
	}

	/** As {@link #finish(RateLimitStore, String)}, with what the store needs back at release. */
	Reservation finish(RateLimitStore store, String leaseId, Object storeHandle) {
		if (refused) {
			return new Reservation(Reservation.Status.REJECTED, store, buckets, tokens, null, requestsBefore,
					tokensBefore, denied, null);
		}
		return new Reservation(Reservation.Status.ADMITTED, store, buckets, tokens, leaseId, requestsAfter,
				tokensAfter, null, storeHandle);
	}

	private static LimitState tighter(LimitState current, LimitState candidate) {
		if (current == null || candidate.remaining() < current.remaining()
				|| (candidate.remaining() == current.remaining() && candidate.limit() < current.limit())) {
			return candidate;
		}
		return current;
	}
}
