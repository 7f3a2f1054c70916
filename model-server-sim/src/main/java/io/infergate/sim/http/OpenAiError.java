package io.infergate.sim.http;

/**
 * An error answered in OpenAI's shape, {@code {"error":{"message","type","param","code"}}}, with vLLM's type names
 * and the HTTP status as {@code code}.
 */
final class OpenAiError extends Exception {

	private final int status;

	private final String type;

	private final String param;

	OpenAiError(int status, String type, String message, String param) {
		super(message, null, false, false);
		this.status = status;
		this.type = type;
		this.param = param;
	}

	static OpenAiError badRequest(String message, String param) {
		return new OpenAiError(400, "BadRequestError", message, param);
	}

	static OpenAiError modelNotFound(String model) {
		return new OpenAiError(404, "NotFoundError", "The model `" + model + "` does not exist.", "model");
	}

	/** The answer of a fault-injected request. */
	static OpenAiError injected(int status) {
		return new OpenAiError(status, "InjectedFault",
				"Injected fault: this request was answered with status " + status + ".", null);
	}

	int status() {
		return this.status;
	}

	String toJson() {
		return "{\"error\":{\"message\":" + JsonText.quote(getMessage()) + ",\"type\":" + JsonText.quote(this.type)
				+ ",\"param\":" + ((this.param != null) ? JsonText.quote(this.param) : "null") + ",\"code\":" + this.status
				+ "}}";
	}
}
