package io.infergate.routing.tokenization;

import io.infergate.routing.openai.InvalidRequestException;
import io.infergate.routing.openai.ParsedRequest;
import io.infergate.routing.openai.PromptTokens;
import io.infergate.tokenizers.ModelTokenizer;

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

	/**
	 * For a {@linkplain #costly() costly} tokenizer: tokenizes the request now if that is cheap (its text was encoded
	 * recently and is cached, but for a short new turn), so that {@link #tokenize} then returns at once; false when it is not (nothing
	 * is done then, and a malformed input is left for {@link #tokenize} to report).
	 */
	default boolean tokenizeCheaply(ParsedRequest parsed) {
		return !costly();
	}

	/**
	 * The model's own tokenizer, with which the gateway can answer {@code /tokenize} and {@code /detokenize} for an
	 * engine that has no such endpoints, or {@code null} when this tokenizer is not one.
	 */
	default ModelTokenizer modelTokenizer() {
		return null;
	}

	/** What its cache of encoded text has done, or {@code null} when it has none. */
	default ModelTokenizer.CacheStatistics cacheStatistics() {
		return null;
	}
}
