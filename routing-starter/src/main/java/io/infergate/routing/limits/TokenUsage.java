package io.infergate.routing.limits;

/**
 * The tokens one request used, as its response reported them or, when it reported none, as the gateway counted
 * what it relayed.
 *
 * @param inputTokens prompt tokens
 * @param outputTokens completion tokens
 * @param reported whether the model server's {@code usage} said so, rather than the gateway's count
 */
public record TokenUsage(long inputTokens, long outputTokens, boolean reported) {

	public static final TokenUsage NONE = new TokenUsage(0, 0, false);

	public long total() {
		return inputTokens + outputTokens;
	}
}
