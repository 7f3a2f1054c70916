package io.infergate.routing.limits;

/**
 * The tokens one request used, as its response reported them or, when it reported none, as the gateway counted
 * what it relayed.
 *
 * @param inputTokens prompt tokens
 * @param outputTokens completion tokens
 * @param reported whether the model server's {@code usage} said so, rather than the gateway's count
 * @param cachedInputTokens of the prompt tokens, those the model server took from its prefix cache, as its
 * {@code usage} reports them ({@code prompt_tokens_details.cached_tokens}, the Responses API's
 * {@code input_tokens_details.cached_tokens}); 0 when it reports none
 */
public record TokenUsage(long inputTokens, long outputTokens, boolean reported, long cachedInputTokens) {

	public static final TokenUsage NONE = new TokenUsage(0, 0, false);

	/** Usage without cached prompt tokens. */
	public TokenUsage(long inputTokens, long outputTokens, boolean reported) {
		this(inputTokens, outputTokens, reported, 0);
	}

	public long total() {
		return inputTokens + outputTokens;
	}
}
