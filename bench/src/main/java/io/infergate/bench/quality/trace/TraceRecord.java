package io.infergate.bench.quality.trace;

/**
 * One request of a capture (schema version 1, {@code docs/capture.md}), as much of it as a replay uses.
 *
 * @param arrivalMs when it arrived, epoch milliseconds
 * @param pool the pool it was routed to; null when the gateway turned it away before routing
 * @param adapter the LoRA adapter its model resolved to, or null
 * @param tenant its tenant, keyed, or null
 * @param priority its priority
 * @param promptTokens its prompt tokens, or -1 when the body was not parsed
 * @param blockSizeChars characters per block of {@code blocks}
 * @param blocks its prompt's chained block hashes, keyed
 * @param outputTokens output tokens from the response's usage, or -1
 * @param maxTokens the request's {@code max_tokens}, or -1
 * @param status the HTTP status the client got
 * @param durationMs arrival to the end of the response, ms; NaN when not recorded
 */
public record TraceRecord(long arrivalMs, String pool, String adapter, String tenant, int priority, int promptTokens,
		int blockSizeChars, long[] blocks, int outputTokens, int maxTokens, int status, double durationMs) {

	/** When it ended, epoch ms; NaN when its duration was not recorded. */
	public double endMs() {
		return arrivalMs + durationMs;
	}

	/** Whether the gateway routed it: only such requests are replayed. */
	public boolean routed() {
		return pool != null && promptTokens >= 0;
	}
}
