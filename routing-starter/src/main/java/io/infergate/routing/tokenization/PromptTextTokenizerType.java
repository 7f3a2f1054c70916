package io.infergate.routing.tokenization;

import java.util.Objects;
import java.util.function.Function;

import io.infergate.routing.openai.ParsedRequest;
import io.infergate.routing.openai.PromptTokens;

/**
 * A {@link TokenizerType} that tokenizes the gateway's own prompt text (a chat's messages as
 * {@code \u001e role \u001f content}, or a completion's prompt) with a function, and takes no files: for engines
 * whose tokenization is a function of the text alone, such as the model-server simulator's stand-in (the gateway
 * application registers it as {@code simulator}). Generation prompts are counted; other inputs keep the estimate.
 */
public final class PromptTextTokenizerType implements TokenizerType {

	private final String name;

	private final Function<String, int[]> tokenizer;

	/**
	 * @param name the type's name in {@code tokenizer.type}
	 * @param tokenizer the token ids of a prompt text; thread-safe
	 */
	public PromptTextTokenizerType(String name, Function<String, int[]> tokenizer) {
		this.name = Objects.requireNonNull(name);
		this.tokenizer = Objects.requireNonNull(tokenizer);
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	public RequestTokenizer create(TokenizerSettings settings) {
		if (settings.path() != null || settings.chatTemplate() != null) {
			throw new IllegalArgumentException("path: the " + name + " tokenizer takes no files");
		}
		return new RequestTokenizer() {

			@Override
			public PromptTokens tokenize(ParsedRequest parsed) {
				String text = parsed.promptText();
				if (text == null || text.isEmpty()) {
					return null;
				}
				int[] ids = tokenizer.apply(text);
				return new PromptTokens(ids, ids.length);
			}

			@Override
			public String describe() {
				return name;
			}
		};
	}
}
