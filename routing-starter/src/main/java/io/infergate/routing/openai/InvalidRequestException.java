package io.infergate.routing.openai;

/** The body is not a valid OpenAI request; the message is safe to show the client. */
public class InvalidRequestException extends Exception {

	private final String param;

	private final boolean malformedJson;

	private InvalidRequestException(String message, String param, boolean malformedJson) {
		super(message, null, false, false);
		this.param = param;
		this.malformedJson = malformedJson;
	}

	static InvalidRequestException field(String param, String message) {
		return new InvalidRequestException(message, param, false);
	}

	static InvalidRequestException malformed(String message) {
		return new InvalidRequestException(message, null, true);
	}

	/** The field at fault, or {@code null}. */
	public String param() {
		return param;
	}

	public boolean isMalformedJson() {
		return malformedJson;
	}
}
