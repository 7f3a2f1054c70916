package io.infergate.gateway.capture;

/**
 * One inference request as the gateway hands it to the capture, once it has ended. It still holds the raw caller
 * and prompt: {@link CaptureLine} keys and hashes them on the capture's writer thread, and only the keyed hashes
 * are ever written.
 *
 * @param arrivalEpochMillis when the request arrived
 * @param path the API path, such as {@code /v1/chat/completions}
 * @param model the model the client asked for, or {@code null} before the body was parsed
 * @param pool the pool it was routed to, or {@code null}
 * @param targetModel the model name the pool's servers know, or {@code null}; seeds the block-hash chain
 * @param adapter the LoRA adapter, or {@code null}
 * @param tenant the caller's tenant, or {@code null}
 * @param keyId the id of the caller's API key, or {@code null}
 * @param priority the request's priority, or {@code null} before it was known
 * @param stream whether the client asked for a stream
 * @param promptTokens the prompt's tokens, or -1 when unknown
 * @param promptTokensExact whether {@code promptTokens} was counted by a tokenizer rather than estimated
 * @param promptText the prompt as the prefix index hashes it, or {@code null}; never written
 * @param maxTokens the request's {@code max_tokens}, or {@code null} when it set none
 * @param outputTokens the output tokens the model server reported, or -1 when it reported none
 * @param status the HTTP status sent to the client
 * @param completed whether the response ended normally
 * @param ttftNanos from arrival to the first body byte, or -1 when none went out
 * @param durationNanos from arrival to the end of the response
 * @param endpoint the endpoint ({@code host:port}) that served it last, or {@code null}
 */
public record CapturedRequest(long arrivalEpochMillis, String path, String model, String pool, String targetModel,
		String adapter, String tenant, String keyId, Integer priority, boolean stream, int promptTokens,
		boolean promptTokensExact, String promptText, Integer maxTokens, long outputTokens, int status,
		boolean completed, long ttftNanos, long durationNanos, String endpoint) {
}
