package io.infergate.routing.tokenization;

/**
 * A kind of tokenizer a model or pool can name in {@code tokenizer.type}: a Spring bean, found by {@link #name()}. A
 * new kind is one class implementing this, registered as a bean.
 */
public interface TokenizerType {

	/** The value of {@code tokenizer.type} that selects it. */
	String name();

	/**
	 * Creates the tokenizer the settings describe.
	 *
	 * @throws IllegalArgumentException when the settings are unusable; the message says why, and which of
	 * {@code path} or {@code chat-template} is at fault when it starts with that name and a colon
	 */
	RequestTokenizer create(TokenizerSettings settings);
}
