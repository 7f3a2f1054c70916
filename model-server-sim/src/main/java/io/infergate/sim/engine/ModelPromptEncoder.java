package io.infergate.sim.engine;

import java.nio.file.Path;

import io.infergate.tokenizers.ModelTokenizer;

/**
 * A model's own tokenization ({@link ModelTokenizer}), as vLLM's OpenAI server does it: chat messages rendered with
 * the model's chat template and tokenized without special tokens (unless the request asks for them), prompts
 * tokenized with them.
 */
final class ModelPromptEncoder implements PromptEncoder {

	private final ModelTokenizer tokenizer;

	ModelPromptEncoder(ModelTokenizer tokenizer) {
		this.tokenizer = tokenizer;
	}

	@Override
	public int[] encodeChat(ChatPrompt chat) {
		if (chat.addGenerationPrompt() && !chat.addSpecialTokens()) {
			return this.tokenizer.encodeChat(chat.jsonMessages(), chat.tools(), chat.templateArguments());
		}
		String text = this.tokenizer.renderChat(chat.jsonMessages(), chat.tools(), chat.templateArguments(),
				chat.addGenerationPrompt());
		return this.tokenizer.encode(text, chat.addSpecialTokens());
	}

	@Override
	public int[] encodePrompt(String prompt) {
		return this.tokenizer.encodePrompt(prompt);
	}

	@Override
	public int[] encode(String text, boolean addSpecialTokens) {
		return this.tokenizer.encode(text, addSpecialTokens);
	}

	@Override
	public String decode(int[] tokens) {
		return this.tokenizer.decode(tokens);
	}

	@Override
	public Path tokenizerFile() {
		return this.tokenizer.file();
	}

	@Override
	public String toString() {
		return "tokenizer " + this.tokenizer.file();
	}
}
