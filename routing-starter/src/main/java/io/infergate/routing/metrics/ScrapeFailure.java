package io.infergate.routing.metrics;

import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Why a scrape failed, as the {@code reason} tag of {@code infergate.scrape.errors} and in {@link ScrapeStatus}.
 */
enum ScrapeFailure {

	/** No complete response within the timeout. */
	TIMEOUT("timeout"),

	/** The connection was refused or could not be made. */
	CONNECT("connect"),

	/** The server answered with a status other than 200. */
	HTTP_STATUS("http_status"),

	/** The exposition was larger than the limit. */
	BODY_TOO_LARGE("body_too_large"),

	/** The exposition lacked a required signal. */
	MISSING_METRIC("missing_metric"),

	/** Any other I/O failure: reset connection, malformed HTTP. */
	IO("io"),

	/** Anything else; a bug if it shows. */
	ERROR("error");

	private final String tag;

	ScrapeFailure(String tag) {
		this.tag = tag;
	}

	String tag() {
		return tag;
	}

	/** Classifies what a scrape future failed with. */
	static ScrapeFailure of(Throwable failure) {
		Throwable cause = unwrap(failure);
		if (cause instanceof HttpTimeoutException || cause instanceof CancellationException) {
			return TIMEOUT; // the watchdog cancels a scrape that outlives its timeout
		}
		if (cause instanceof ConnectException) {
			return CONNECT;
		}
		if (cause instanceof HttpStatusException) {
			return HTTP_STATUS;
		}
		if (cause instanceof BodyTooLargeException) {
			return BODY_TOO_LARGE;
		}
		if (cause instanceof MissingMetricException) {
			return MISSING_METRIC;
		}
		return (cause instanceof IOException) ? IO : ERROR;
	}

	/** A message for {@link ScrapeStatus#lastError()}: the cause's own message, else its type. */
	static String describe(Throwable failure) {
		Throwable cause = unwrap(failure);
		if (cause instanceof CancellationException) {
			return "timed out";
		}
		String message = cause.getMessage();
		return (message != null && !message.isBlank()) ? message : cause.getClass().getSimpleName();
	}

	private static Throwable unwrap(Throwable failure) {
		Throwable cause = failure;
		while ((cause instanceof CompletionException || cause instanceof ExecutionException)
				&& cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
	}

	/** The exposition was larger than {@link ScrapeSettings#maxBodyBytes()}. */
	@SuppressWarnings("serial")
	static final class BodyTooLargeException extends IOException {

		BodyTooLargeException(int maxBodyBytes) {
			super("exposition larger than " + maxBodyBytes + " bytes");
		}
	}

	/** The exposition answered with a status other than 200. Thrown at up to the scrape rate, so no stack trace. */
	@SuppressWarnings("serial")
	static final class HttpStatusException extends RuntimeException {

		HttpStatusException(int status) {
			super("HTTP " + status, null, false, false);
		}
	}
}
