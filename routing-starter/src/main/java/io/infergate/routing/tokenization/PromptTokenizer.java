package io.infergate.routing.tokenization;

import io.infergate.routing.request.InferenceRequest;

/**
 * The token ids a model server computes for a request's prompt: its chat template applied to the messages (for a
 * chat request), then its tokenizer. Matching a prompt to the blocks an engine reports in its KV-cache events needs
 * exactly the engine's ids. A bean of this type replaces the simulator's ({@link SimulatorPromptTokenizer}).
 * <p>
 * Called on the scheduling path: implementations must be thread-safe and should not allocate per token.
 */
public interface PromptTokenizer {

	/**
	 * Writes the first token ids of the request's prompt to {@code tokens}, at most {@code tokens.length} of them.
	 * @return how many were written
	 */
	int tokenize(InferenceRequest request, int[] tokens);
}
