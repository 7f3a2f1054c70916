package io.infergate.routing.tokenization;

import io.infergate.routing.openai.InvalidRequestException;
import io.infergate.routing.openai.ParsedRequest;
import io.infergate.routing.openai.PromptTokens;

/**
 * A model's tokenization of a request's input, as its engine will count it: what makes limits, lanes, in-flight
 * tokens and precise prefix routing exact. One per configured tokenizer ({@link Tokenizers}); thread-safe.
 */
public interface RequestTokenizer {

	/**
	 * The request's prompt tokens, or {@code null} when this tokenizer cannot count this kind of input (the gateway's
	 * estimate stays).
	 *
	 * @throws InvalidRequestException when the input cannot be tokenized for the model (a 400 for the client)
	 */
	PromptTokens tokenize(ParsedRequest parsed) throws InvalidRequestException;

	/** What counts the tokens, for {@code /actuator/inference}: a tokenizer file's path, or a name. */
	String describe();

	/**
	 * Whether tokenizing takes long enough (a real tokenizer: about 2 to 3 µs per token) to keep it off the event
	 * loops that serve connections.
	 */
	default boolean costly() {
		return false;
	}
}
