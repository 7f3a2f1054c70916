package io.infergate.routing.openai;

/**
 * The fields of an OpenAI request body the gateway needs, read in one streaming pass.
 *
 * @param model the {@code model} value
 * @param modelValueStart byte offset of the opening quote of the {@code model} value
 * @param modelValueEnd byte offset just past its closing quote
 * @param stream the {@code stream} flag
 * @param maxTokens {@code max_completion_tokens}, {@code max_output_tokens} or {@code max_tokens}, or {@code null}
 * when absent
 * @param promptText the input as one string, as {@link PromptText} builds it
 * @param inputTokens the input's estimated tokens: characters / 4 rounded up, plus one per token id, with a rerank or
 * score query counted once per document it is paired with
 * @param user the {@code user} value, or {@code null}
 * @param streamOptions what {@code stream_options} says about usage
 * @param priority the {@code priority} value, in Infergate's convention (larger is more important; it only ever
 * lowers the caller's), or {@code null} when absent
 * @param source the body's input, for exact tokens once the model's tokenizer is known; {@code null} when the
 * request was not read from a body (the bench harness)
 * @param cacheSalt the {@code cache_salt} value (vLLM's prefix-cache isolation), or {@code null}
 */
public record ParsedRequest(String model, int modelValueStart, int modelValueEnd, boolean stream, Integer maxTokens,
		String promptText, int inputTokens, String user, StreamOptions streamOptions, Integer priority,
		PromptSource source, String cacheSalt) {

	/** A request without a {@code cache_salt}. */
	public ParsedRequest(String model, int modelValueStart, int modelValueEnd, boolean stream, Integer maxTokens,
			String promptText, int inputTokens, String user, StreamOptions streamOptions, Integer priority,
			PromptSource source) {
		this(model, modelValueStart, modelValueEnd, stream, maxTokens, promptText, inputTokens, user, streamOptions,
				priority, source, null);
	}

	/** A request not read from a body. */
	public ParsedRequest(String model, int modelValueStart, int modelValueEnd, boolean stream, Integer maxTokens,
			String promptText, int inputTokens, String user, StreamOptions streamOptions, Integer priority) {
		this(model, modelValueStart, modelValueEnd, stream, maxTokens, promptText, inputTokens, user, streamOptions,
				priority, null);
	}

	/** A request without a {@code priority}. */
	public ParsedRequest(String model, int modelValueStart, int modelValueEnd, boolean stream, Integer maxTokens,
			String promptText, int inputTokens, String user, StreamOptions streamOptions) {
		this(model, modelValueStart, modelValueEnd, stream, maxTokens, promptText, inputTokens, user, streamOptions,
				null, null);
	}

	/** Whether the client asked for the final usage chunk of a stream, {@code stream_options.include_usage}. */
	public boolean includeUsage() {
		return streamOptions == StreamOptions.INCLUDE_USAGE;
	}
}
