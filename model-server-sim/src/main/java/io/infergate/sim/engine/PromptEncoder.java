package io.infergate.sim.engine;

import java.nio.file.Path;

import io.infergate.simtokenizer.StandInChatTemplate;
import io.infergate.tokenizers.ModelTokenizer;
import io.infergate.tokenizers.TokenizerException;

/**
 * How the simulator turns a request's text into the token ids the engine runs, caches and publishes: the stand-in
 * ({@link io.infergate.simtokenizer.StandInTokenizer} and {@link StandInChatTemplate}, the default) or a model's own tokenizer and chat template
 * ({@link ModelTokenizer}, the {@code --tokenizer} option). Thread-safe.
 */
public interface PromptEncoder {

	/**
	 * The token ids of a chat request's prompt: its messages rendered with the chat template.
	 * @throws TokenizerException when the template cannot render them, or a field of the request is malformed
	 */
	int[] encodeChat(ChatPrompt chat);

	/** The token ids of a completions, embeddings or scoring prompt, special tokens added as vLLM adds them. */
	int[] encodePrompt(String prompt);

	/** The token ids of a text, with or without the tokenizer's special tokens ({@code /tokenize}). */
	int[] encode(String text, boolean addSpecialTokens);

	/** The text of token ids, or {@code null} when this encoder cannot turn ids back into text. */
	String decode(int[] tokens);

	/** The {@code tokenizer.json} this encoder was loaded from, or {@code null} for the stand-in. */
	Path tokenizerFile();

	/** The stand-in: a token per 4 characters, chat messages rendered as {@code <|role|>\n content \n}. */
	static PromptEncoder standIn() {
		return StandInPromptEncoder.INSTANCE;
	}

	/** A model's tokenizer and chat template. */
	static PromptEncoder of(ModelTokenizer tokenizer) {
		return new ModelPromptEncoder(tokenizer);
	}

	/**
	 * Loads a model's tokenizer.
	 * @param tokenizer a {@code tokenizer.json}, or the directory holding it
	 * @param chatTemplate a Jinja chat template to use instead of the tokenizer's, or {@code null}
	 * @throws TokenizerException when a file is missing or invalid; the message names it
	 */
	static PromptEncoder load(Path tokenizer, Path chatTemplate) {
		return of(ModelTokenizer.load(tokenizer, chatTemplate));
	}
}
