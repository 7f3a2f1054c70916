package io.infergate.bench.quality.trace;

/** A capture that cannot be replayed; the message names the file, the line and what is wrong with it. */
public final class TraceException extends RuntimeException {

	public TraceException(String message) {
		super(message);
	}
}
