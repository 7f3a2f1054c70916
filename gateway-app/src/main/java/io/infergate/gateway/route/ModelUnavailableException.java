package io.infergate.gateway.route;

/**
 * The model being tried cannot serve the request, and nothing has been sent to the client yet: the request moves on
 * to the next fallback. Thrown only while one is left, and caught by {@link ModelFallbackFilter}.
 */
final class ModelUnavailableException extends RuntimeException {

	/** @param reason why, for the log */
	ModelUnavailableException(String reason) {
		super(reason, null, false, false);
	}
}
