package io.infergate.gateway.observe;

import io.infergate.routing.limits.TokenUsage;

/**
 * One inference request as the gateway saw it once it ended: what metrics, the request's span and the access log
 * record. Never any prompt or completion text.
 *
 * @param requestId the exchange's request id
 * @param apiKeyId the id of the key that authenticated it, or {@code null}
 * @param tenant its tenant, or {@code null}
 * @param model the model the client asked for, or {@code null} before the body was parsed
 * @param pool the pool it was routed to, or {@code null} when it was not
 * @param endpoint the endpoint ({@code host:port}) that served it last, or {@code null}
 * @param profile the scheduling profile that chose the endpoint, or {@code null}
 * @param status the HTTP status sent to the client
 * @param stream whether the client asked for a stream
 * @param completed whether the response ended normally (not cancelled, no error, no upstream failure mid-stream)
 * @param ttftNanos from arrival to the first body byte (first event of a stream), or -1 when none went out
 * @param durationNanos from arrival to the end of the response
 * @param usage the usage the model server reported, or {@code null} when it reported none
 * @param queueWaitNanos time in the flow-control queue, or -1 when the request did not queue
 * @param fallbacks fallback models tried after the requested one, or -1 before a model was resolved
 * @param cost what it cost at its model's price ({@code infergate.models.<m>.price}), from the usage its limits
 * settle with: as reported, else as the gateway counted it; 0 without a price or usage
 */
public record CompletedRequest(String requestId, String apiKeyId, String tenant, String model, String pool,
		String endpoint, String profile, int status, boolean stream, boolean completed, long ttftNanos,
		long durationNanos, TokenUsage usage, long queueWaitNanos, int fallbacks, double cost) {

	/** A response the latency metrics describe: served by an endpoint, 2xx, ended normally, with a body. */
	public boolean isServed() {
		return endpoint != null && status >= 200 && status < 300 && completed && ttftNanos >= 0;
	}
}
