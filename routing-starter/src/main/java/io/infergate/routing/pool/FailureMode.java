package io.infergate.routing.pool;

/**
 * What a pool does when scheduling fails or leaves no candidate while ready endpoints exist (the InferencePool
 * {@code failureMode} semantics).
 */
public enum FailureMode {

	/** Answer 503: never route blind. */
	FAIL_CLOSE("fail-close"),

	/** Send the request to a random ready endpoint. */
	FAIL_OPEN("fail-open");

	private final String configName;

	FailureMode(String configName) {
		this.configName = configName;
	}

	public String configName() {
		return configName;
	}
}
