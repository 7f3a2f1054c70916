package io.infergate.sim.engine;

import java.nio.file.Path;

/**
 * The simulator's stand-in tokenization: {@link ChatTemplate} and {@link Tokenizer}. It has no special tokens and no
 * options: {@code add_generation_prompt}, {@code add_special_tokens}, tools and template arguments change nothing,
 * and its tokens cannot be decoded.
 */
final class StandInPromptEncoder implements PromptEncoder {

	static final StandInPromptEncoder INSTANCE = new StandInPromptEncoder();

	private StandInPromptEncoder() {
	}

	@Override
	public int[] encodeChat(ChatPrompt chat) {
		return Tokenizer.encode(ChatTemplate.render(chat.messages()));
	}

	@Override
	public int[] encodePrompt(String prompt) {
		return Tokenizer.encode(prompt);
	}

	@Override
	public int[] encode(String text, boolean addSpecialTokens) {
		return Tokenizer.encode(text);
	}

	@Override
	public String decode(int[] tokens) {
		return null;
	}

	@Override
	public Path tokenizerFile() {
		return null;
	}

	@Override
	public String toString() {
		return "stand-in tokenizer";
	}
}
