package io.infergate.sim.engine;

/**
 * Receives a request's progress as engine steps complete. Calls come from the thread driving the engine (the
 * engine thread in wall-clock mode, the caller in virtual time), in step order, and must not block. Times are
 * engine time in microseconds.
 */
public interface EngineEventListener {

	EngineEventListener NONE = new EngineEventListener() {
	};

	/** The first output token; followed by {@link #onToken} for the same token. */
	default void onFirstToken(EngineRequest request, long timeMicros) {
	}

	/** Each output token, {@code request.numOutputTokens()} counting it. */
	default void onToken(EngineRequest request, long timeMicros) {
	}

	/** The last output token was generated; the request has released its KV blocks. */
	default void onFinished(EngineRequest request, long timeMicros) {
	}

	/** The request lost its KV blocks and went back to the head of the waiting queue, to be recomputed. */
	default void onPreempted(EngineRequest request, long timeMicros) {
	}
}
