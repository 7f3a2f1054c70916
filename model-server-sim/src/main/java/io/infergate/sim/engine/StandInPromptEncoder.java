package io.infergate.sim.engine;

import java.nio.file.Path;

import io.infergate.simtokenizer.StandInChatTemplate;
import io.infergate.simtokenizer.StandInTokenizer;

/**
 * The simulator's stand-in tokenization: {@link StandInChatTemplate} and {@link StandInTokenizer} (module
 * {@code sim-tokenizer}). It has no special tokens and no options: {@code add_generation_prompt}, {@code add_special_tokens}, tools and template arguments change nothing,
 * and its tokens cannot be decoded.
 */
final class StandInPromptEncoder implements PromptEncoder {

	static final StandInPromptEncoder INSTANCE = new StandInPromptEncoder();

	private StandInPromptEncoder() {
	}

	@Override
	public int[] encodeChat(ChatPrompt chat) {
		return StandInTokenizer.encode(StandInChatTemplate.render(chat.messages()));
	}

	@Override
	public int[] encodePrompt(String prompt) {
		return StandInTokenizer.encode(prompt);
	}

	@Override
	public int[] encode(String text, boolean addSpecialTokens) {
		return StandInTokenizer.encode(text);
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
