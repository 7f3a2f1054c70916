package io.infergate.routing.limits;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The limits' answer to one request. An admitted request holds its reservation until {@link #complete} is called
 * with the tokens it really used, when its response ends, fails or is cancelled.
 */
public final class LimitDecision {

	private final Caller caller;

	private final String model;

	private final Reservation reservation;

	private final TenantMeters.Meters meters;

	private final AtomicBoolean completed = new AtomicBoolean();

	LimitDecision(Caller caller, String model, Reservation reservation, TenantMeters.Meters meters) {
		this.caller = caller;
		this.model = model;
		this.reservation = reservation;
		this.meters = meters;
	}

	public Caller caller() {
		return caller;
	}

	public String model() {
		return model;
	}

	public Reservation.Status status() {
		return reservation.status();
	}

	public boolean admitted() {
		return reservation.admitted();
	}

	/** What the store answered: the limits to report in headers, and the refusing limit. */
	public Reservation reservation() {
		return reservation;
	}

	/** Whether any request or token limit applies, so the response carries {@code x-ratelimit-*} headers. */
	public boolean reportsLimits() {
		return reservation.requests() != null || reservation.tokenLimit() != null;
	}

	/**
	 * Charges the tokens the request really used to its limits (replacing the reservation), releases its
	 * max-parallel lease and counts its tokens for the tenant. Only the first call counts.
	 */
	public void complete(TokenUsage usage) {
		if (reservation.admitted() && completed.compareAndSet(false, true)) {
			meters.used(usage);
			reservation.release(usage.total());
		}
	}
}
