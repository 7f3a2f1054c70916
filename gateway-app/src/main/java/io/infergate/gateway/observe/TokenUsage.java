package io.infergate.gateway.observe;

/**
 * The {@code usage} a model server reported for one request.
 *
 * @param inputTokens {@code prompt_tokens}
 * @param outputTokens {@code completion_tokens}
 */
public record TokenUsage(long inputTokens, long outputTokens) {
}
