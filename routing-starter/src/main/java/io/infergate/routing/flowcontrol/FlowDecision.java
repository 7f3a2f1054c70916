package io.infergate.routing.flowcontrol;

/**
 * What flow control decided for one request.
 *
 * @param outcome dispatched, or why not
 * @param waitedMillis how long the request waited at the gateway
 * @param retryAfterMillis for a rejection, when the client should try again: the requests waiting ahead of it
 * divided by the rate the pool's queue has drained at lately; 0 otherwise
 */
public record FlowDecision(FlowOutcome outcome, long waitedMillis, long retryAfterMillis) {

	public boolean dispatched() {
		return outcome == FlowOutcome.DISPATCHED;
	}
}
