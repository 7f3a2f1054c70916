package io.infergate.sim.http;

import java.util.function.Supplier;

import io.infergate.sim.engine.ChatPrompt;
import io.infergate.sim.engine.PromptEncoder;
import io.infergate.tokenizers.TokenizerException;

/**
 * The server's {@link PromptEncoder} as request handlers use it: what it cannot tokenize (a chat template failing on
 * the request's messages, a malformed template field) is the client's 400, in vLLM's error shape.
 */
final class RequestEncoder {

	private final PromptEncoder encoder;

	RequestEncoder(PromptEncoder encoder) {
		this.encoder = encoder;
	}

	int[] chat(ChatPrompt chat) throws OpenAiError {
		return encoded(() -> this.encoder.encodeChat(chat));
	}

	int[] prompt(String prompt) throws OpenAiError {
		return encoded(() -> this.encoder.encodePrompt(prompt));
	}

	int[] text(String text, boolean addSpecialTokens) throws OpenAiError {
		return encoded(() -> this.encoder.encode(text, addSpecialTokens));
	}

	/** The text of token ids, or {@code null} when the encoder cannot decode. */
	String decode(int[] tokens) throws OpenAiError {
		return encoded(() -> this.encoder.decode(tokens));
	}

	private static <T> T encoded(Supplier<T> encoding) throws OpenAiError {
		try {
			return encoding.get();
		}
		catch (TokenizerException ex) {
			throw OpenAiError.badRequest(ex.getMessage(), null);
		}
		catch (RuntimeException ex) {
			throw new OpenAiError(500, "InternalServerError", "Tokenization failed: " + ex, null);
		}
	}
}
