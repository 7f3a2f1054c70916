package io.infergate.tokenizers;

/** A tokenizer that cannot be loaded, or a request it cannot tokenize; the message says which file or field. */
public class TokenizerException extends RuntimeException {

	public TokenizerException(String message) {
		super(message);
	}
}
