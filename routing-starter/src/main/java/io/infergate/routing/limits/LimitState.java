package io.infergate.routing.limits;

/**
 * One limit of one bucket as the limits found it.
 *
 * @param bucket the bucket
 * @param kind which of its limits
 * @param limit the limit
 * @param remaining units left: after this request when it was admitted, before it when it was refused
 * @param resetMicros until the bucket is full again (0 for {@link LimitKind#MAX_PARALLEL})
 * @param retryAfterMicros when refused by this limit, until the request would fit; else 0
 * @param requested the units this request asked of this limit
 */
public record LimitState(Bucket bucket, LimitKind kind, long limit, long remaining, long resetMicros,
		long retryAfterMicros, long requested) {

	/** Units in use: the limit less what remains. */
	public long used() {
		return Math.max(0, limit - remaining);
	}

	public boolean refused() {
		return retryAfterMicros > 0;
	}
}
