package io.infergate.gateway.error;

import java.util.List;

import org.springframework.http.HttpStatus;

import io.infergate.gateway.observe.JsonText;
import io.infergate.routing.openai.InvalidRequestException;

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

	/** 400 for a body that is not a valid request: {@link #invalidJson} when it is not JSON, else the field's. */
	public static OpenAiError invalidRequest(InvalidRequestException problem) {
		return problem.isMalformedJson() ? invalidJson(problem.getMessage())
				: badRequest(problem.getMessage(), problem.param());
	}

	/** Client input in error messages (model names, paths) is cut to this many characters. */
	public static final int MAX_ECHOED_CHARS = 256;

	/**
	 * 404 for a model no pool serves, suggesting {@code closeNames}; echoes at most
	 * {@value #MAX_ECHOED_CHARS} characters of what was sent.
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

	/** {@code input} from the client, cut to {@value #MAX_ECHOED_CHARS} characters with an ellipsis. */
	public static String echo(String input) {
		if (input.length() <= MAX_ECHOED_CHARS) {
			return input;
		}
		int end = Character.isHighSurrogate(input.charAt(MAX_ECHOED_CHARS - 1)) ? MAX_ECHOED_CHARS - 1
				: MAX_ECHOED_CHARS;
		return input.substring(0, end) + "…";
	}

	/** 400 for a request larger than its model can take, with OpenAI's code for it. */
	/** 404 for an endpoint that the pool's engine does not have and the gateway cannot answer for it. */
	public static OpenAiError noSuchEndpoint(String message) {
		return new OpenAiError(HttpStatus.NOT_FOUND, message, "invalid_request_error", null, "unsupported_endpoint");
	}

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

	/** 401 for a request without a key, with a malformed {@code Authorization}, or with a key that is not valid. */
	public static OpenAiError invalidApiKey(String message) {
		return new OpenAiError(HttpStatus.UNAUTHORIZED, message, "invalid_request_error", null, "invalid_api_key");
	}

	/** 403 for a model the key may not call. */
	public static OpenAiError modelNotAllowed(String keyId, String model) {
		return new OpenAiError(HttpStatus.FORBIDDEN,
				"The API key '" + keyId + "' is not allowed to call the model `" + echo(model) + "`.",
				"invalid_request_error", "model", "model_not_allowed");
	}

	/** 429 in the words of OpenAI's rate-limit errors; {@code type} is {@code requests} or {@code tokens}. */
	public static OpenAiError rateLimited(String message, String type) {
		return new OpenAiError(HttpStatus.TOO_MANY_REQUESTS, message, type, null, "rate_limit_exceeded");
	}

	/** 431 for request headers above {@code server.max-http-request-header-size}. */
	public static OpenAiError headersTooLarge(long limitBytes) {
		return new OpenAiError(HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
				"The request headers are larger than the gateway's limit of " + limitBytes + " bytes.",
				"invalid_request_error", null, "request_headers_too_large");
	}

	/** 431 for a request with more header fields than {@code infergate.gateway.max-request-headers}. */
	public static OpenAiError tooManyHeaders(int count, int limit) {
		return new OpenAiError(HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
				"The request has " + count + " header fields; the gateway accepts at most " + limit + ".",
				"invalid_request_error", null, "request_headers_too_large");
	}

	/** 400 for a {@code Content-Type} header that is not a media type; echoes at most {@value #MAX_ECHOED_CHARS} characters. */
	public static OpenAiError invalidContentType(String contentType) {
		return new OpenAiError(HttpStatus.BAD_REQUEST,
				"The Content-Type header is not a valid media type: " + echo(contentType) + ". Send application/json.",
				"invalid_request_error", null, "invalid_content_type");
	}

	/** 414 for a request line above the server's limit. */
	public static OpenAiError uriTooLong(long limitBytes) {
		return new OpenAiError(HttpStatus.URI_TOO_LONG,
				"The request line is longer than the gateway's limit of " + limitBytes + " bytes.",
				"invalid_request_error", null, "request_uri_too_long");
	}

	/** The JSON body. */
	public String toJson() {
		StringBuilder json = new StringBuilder(96 + message.length());
		json.append("{\"error\":{\"message\":");
		JsonText.string(json, message);
		json.append(",\"type\":");
		JsonText.string(json, type);
		json.append(",\"param\":");
		JsonText.string(json, param);
		json.append(",\"code\":");
		JsonText.string(json, code);
		json.append("}}");
		return json.toString();
	}
}
