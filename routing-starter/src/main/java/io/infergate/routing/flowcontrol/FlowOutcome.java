package io.infergate.routing.flowcontrol;

/** How a request left flow control. Every outcome but {@link #DISPATCHED} and {@link #CANCELLED} is a rejection. */
public enum FlowOutcome {

	/** Sent on to scheduling, at once or after waiting. */
	DISPATCHED("dispatched", 200),

	/** The pool is saturated and the queue (of its band, or of the pool) is full. */
	REJECTED_CAPACITY("rejected-capacity", 429),

	/** A sheddable request (priority below 0) while the pool is saturated. */
	REJECTED_SHEDDABLE("rejected-sheddable", 429),

	/** Waited its whole time to live while the pool stayed saturated. */
	TTL_EXPIRED("ttl-expired", 429),

	/** Waited its whole time to live and the pool has no ready endpoint left. */
	NO_ENDPOINTS("no-endpoints", 503),

	/** The gateway is shutting down. */
	SHUTTING_DOWN("shutting-down", 503),

	/** The client went away while the request waited. */
	CANCELLED("cancelled", 499);

	private final String reason;

	private final int status;

	FlowOutcome(String reason, int status) {
		this.reason = reason;
		this.status = status;
	}

	/** The value of {@code x-infergate-dropped-reason}, and the {@code outcome} tag of the meters. */
	public String reason() {
		return reason;
	}

	/** The HTTP status a rejection is answered with. */
	public int status() {
		return status;
	}

	public boolean isRejection() {
		return this != DISPATCHED && this != CANCELLED;
	}
}
