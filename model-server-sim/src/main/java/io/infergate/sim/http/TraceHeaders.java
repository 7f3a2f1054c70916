package io.infergate.sim.http;

import java.util.ArrayDeque;
import java.util.List;

/**
 * The W3C trace context headers generation requests arrived with, so a test can check that a gateway propagates
 * its trace to the model server. Keeps the last {@value #CAPACITY}. Thread-safe.
 */
public final class TraceHeaders {

	public static final String TRACEPARENT = "traceparent";

	public static final int CAPACITY = 128;

	private final ArrayDeque<String> recent = new ArrayDeque<>(CAPACITY);

	/** Records a request's {@code traceparent}; {@code null} (none sent) is not recorded. */
	public synchronized void record(String traceparent) {
		if (traceparent == null) {
			return;
		}
		if (this.recent.size() == CAPACITY) {
			this.recent.removeFirst();
		}
		this.recent.addLast(traceparent);
	}

	/** The recorded headers, oldest first. */
	public synchronized List<String> recent() {
		return List.copyOf(this.recent);
	}
}
