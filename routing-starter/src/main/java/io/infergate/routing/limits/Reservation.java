package io.infergate.routing.limits;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What a store answered to one request: admitted (its units are held until {@link #release}), refused by a limit,
 * or not decided because the store could not be reached.
 */
public final class Reservation {

	public enum Status {

		ADMITTED, REJECTED, STORE_UNAVAILABLE
	}

	private static final Reservation UNLIMITED = new Reservation(Status.ADMITTED, null, List.of(), 0, null, null,
			null, null, null);

	private final Status status;

	private final RateLimitStore store;

	private final List<Bucket> buckets;

	private final long tokens;

	private final String leaseId;

	private final LimitState requests;

	private final LimitState tokenLimit;

	private final LimitState denied;

	private final Object storeHandle;

	private final AtomicBoolean released = new AtomicBoolean();

	Reservation(Status status, RateLimitStore store, List<Bucket> buckets, long tokens, String leaseId,
			LimitState requests, LimitState tokenLimit, LimitState denied, Object storeHandle) {
		this.status = status;
		this.store = store;
		this.buckets = buckets;
		this.tokens = tokens;
		this.leaseId = leaseId;
		this.requests = requests;
		this.tokenLimit = tokenLimit;
		this.denied = denied;
		this.storeHandle = storeHandle;
	}

	/** A decision no limit applied to: nothing held, nothing to release. */
	static Reservation unlimited() {
		return UNLIMITED;
	}

	static Reservation unavailable(List<Bucket> buckets, long tokens) {
		return new Reservation(Status.STORE_UNAVAILABLE, null, buckets, tokens, null, null, null, null, null);
	}

	public Status status() {
		return status;
	}

	public boolean admitted() {
		return status == Status.ADMITTED;
	}

	/** The buckets the request was checked against. */
	public List<Bucket> buckets() {
		return buckets;
	}

	/** The tokens asked of each TPM limit (each limit holds at most its own size of them). */
	public long tokens() {
		return tokens;
	}

	/** The id of the request's lease on its max-parallel limits, or {@code null}. */
	public String leaseId() {
		return leaseId;
	}

	/** What the store that admitted the request keeps with it for {@link #release}, or {@code null}. */
	Object storeHandle() {
		return storeHandle;
	}

	/** The request limit with the fewest requests left, or {@code null} when no RPM limit applies. */
	public LimitState requests() {
		return requests;
	}

	/** The token limit with the fewest tokens left, or {@code null} when no TPM limit applies. */
	public LimitState tokenLimit() {
		return tokenLimit;
	}

	/** For a refused request, the refusing limit that frees last. */
	public LimitState denied() {
		return denied;
	}

	/**
	 * Corrects the token reservation to the {@code actualTokens} the request really used and ends its lease on the
	 * max-parallel limits. Only the first call counts.
	 */
	public void release(long actualTokens) {
		if (status == Status.ADMITTED && store != null && released.compareAndSet(false, true)) {
			store.release(this, actualTokens);
		}
	}

	/** Whether the request holds anything that {@link #release} must give back. */
	boolean holdsUnits() {
		for (Bucket bucket : buckets) {
			if (bucket.tpm() > 0 || bucket.maxParallel() > 0) {
				return true;
			}
		}
		return false;
	}
}
