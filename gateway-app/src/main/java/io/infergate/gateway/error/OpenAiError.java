package io.infergate.gateway.error;

import java.util.List;

import org.springframework.http.HttpStatus;

import tools.jackson.core.io.JsonStringEncoder;

/**
 * An error in the OpenAI shape, {@code {"error":{"message","type","param","code"}}}, with its HTTP status.
 *
 * @param status the HTTP status
 * @param message a sentence for the API client
 * @param type OpenAI's error type, e.g. {@code invalid_request_error}
 * @param param the request field at fault, or {@code null}
 * @param code a stable machine-readable code, or {@code null}
 */
public record OpenAiError(HttpStatus status, String message, String type, String param, String code) {

	public static OpenAiError badRequest(String message, String param) {
		return new OpenAiError(HttpStatus.BAD_REQUEST, message, "invalid_request_error", param, "invalid_request");
	}

	public static OpenAiError invalidJson(String message) {
		return new OpenAiError(HttpStatus.BAD_REQUEST, message, "invalid_request_error", null, "invalid_json");
	}

	/** Model names in error messages are cut to this many characters: the client sent them, not the gateway. */
	public static final int MAX_ECHOED_MODEL_CHARS = 256;

	/**
	 * 404 for a model no pool serves, suggesting {@code closeNames}; echoes at most
	 * {@value #MAX_ECHOED_MODEL_CHARS} characters of what was sent.
	 */
	public static OpenAiError unknownModel(String model, List<String> closeNames) {
		StringBuilder message = new StringBuilder("The model `").append(echo(model))
			.append("` does not exist or is not served by this gateway.");
		if (!closeNames.isEmpty()) {
			message.append(" Did you mean ");
			for (int i = 0; i < closeNames.size(); i++) {
				message.append((i == 0) ? "" : (i == closeNames.size() - 1) ? " or " : ", ")
					.append('`')
					.append(echo(closeNames.get(i)))
					.append('`');
			}
			message.append('?');
		}
		message.append(" GET /v1/models lists the models.");
		return new OpenAiError(HttpStatus.NOT_FOUND, message.toString(), "invalid_request_error", "model",
				"model_not_found");
	}

	/** {@code model}, cut to {@value #MAX_ECHOED_MODEL_CHARS} characters with an ellipsis. */
	public static String echo(String model) {
		if (model.length() <= MAX_ECHOED_MODEL_CHARS) {
			return model;
		}
		int end = Character.isHighSurrogate(model.charAt(MAX_ECHOED_MODEL_CHARS - 1)) ? MAX_ECHOED_MODEL_CHARS - 1
				: MAX_ECHOED_MODEL_CHARS;
		return model.substring(0, end) + "…";
	}

	/** 400 for a request larger than its model can take, with OpenAI's code for it. */
	public static OpenAiError tooManyTokens(String message) {
		return new OpenAiError(HttpStatus.BAD_REQUEST, message, "invalid_request_error", null,
				"context_length_exceeded");
	}

	public static OpenAiError bodyTooLarge(long limitBytes) {
		return new OpenAiError(HttpStatus.PAYLOAD_TOO_LARGE,
				"The request body is larger than the gateway's limit of " + limitBytes + " bytes.",
				"invalid_request_error", null, "request_too_large");
	}

	public static OpenAiError unavailable(String message) {
		return new OpenAiError(HttpStatus.SERVICE_UNAVAILABLE, message, "service_unavailable", null,
				"no_endpoint_available");
	}

	/** The JSON body. */
	public String toJson() {
		StringBuilder json = new StringBuilder(96 + message.length());
		json.append("{\"error\":{\"message\":");
		appendString(json, message);
		json.append(",\"type\":");
		appendString(json, type);
		json.append(",\"param\":");
		appendString(json, param);
		json.append(",\"code\":");
		appendString(json, code);
		json.append("}}");
		return json.toString();
	}

	private static void appendString(StringBuilder json, String value) {
		if (value == null) {
			json.append("null");
			return;
		}
		json.append('"');
		JsonStringEncoder.getInstance().quoteAsString(value, json);
		json.append('"');
	}
}
