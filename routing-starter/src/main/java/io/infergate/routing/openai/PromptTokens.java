package io.infergate.routing.openai;

/**
 * A prompt's tokens as its model's tokenizer counts them.
 *
 * @param ids the prompt's token ids, as the engine will see them; {@code null} when the request holds several
 * prompts (only their count is known then, and no single prefix)
 * @param count how many tokens the prompt (or all its prompts) has
 */
public record PromptTokens(int[] ids, int count) {

	static PromptTokens of(int[] ids) {
		return new PromptTokens(ids, ids.length);
	}

	static PromptTokens counted(int count) {
		return new PromptTokens(null, count);
	}
}
