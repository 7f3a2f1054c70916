package io.infergate.routing;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.SchedulingResult;

/**
 * What the router decided for one request.
 *
 * @param status how the decision ended
 * @param chosen the endpoint to send the request to, or {@code null} unless {@link #hasEndpoint()}
 * @param result the scheduler's result, or {@code null} when the scheduler did not run or threw
 * @param reason a sentence for logs and error messages when there is no endpoint
 */
public record RoutingOutcome(Status status, Endpoint chosen, SchedulingResult result, String reason) {

	public boolean hasEndpoint() {
		return chosen != null;
	}

	public enum Status {

		/** The profile picked an endpoint. */
		PICKED("picked"),

		/** Scheduling failed or left no candidate, and the pool's fail-open mode picked a random ready endpoint. */
		FAILED_OPEN("failed-open"),

		/** Scheduling failed or left no candidate, and the pool is fail-close. */
		REJECTED("rejected"),

		/** The pool has no ready endpoint (none discovered, none scraped yet, or all failing). */
		NO_READY_ENDPOINT("no-ready-endpoint"),

		/** No pool has the requested name. */
		UNKNOWN_POOL("unknown-pool");

		private final String label;

		Status(String label) {
			this.label = label;
		}

		/** The outcome as shown in decision records and metrics. */
		public String label() {
			return label;
		}
	}
}
