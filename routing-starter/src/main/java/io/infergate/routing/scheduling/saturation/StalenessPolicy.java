package io.infergate.routing.scheduling.saturation;

/**
 * What the scheduler assumes about an endpoint whose metrics snapshot is missing or older than the staleness
 * threshold.
 */
public enum StalenessPolicy {

	/** Treat it as saturated: route elsewhere while any endpoint has fresh metrics (the llm-d default). */
	SATURATED,

	/** Keep routing to it as if its last known metrics, if any, were current. */
	IGNORE
}
