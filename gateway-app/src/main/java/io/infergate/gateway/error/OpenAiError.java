package io.infergate.gateway.error;

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

	public static OpenAiError unknownModel(String model) {
		return new OpenAiError(HttpStatus.NOT_FOUND,
				"The model `" + model + "` does not exist or is not served by this gateway.", "invalid_request_error",
				"model", "model_not_found");
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
