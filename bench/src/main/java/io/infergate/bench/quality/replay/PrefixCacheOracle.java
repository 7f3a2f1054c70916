package io.infergate.bench.quality.replay;

import io.infergate.routing.endpoint.Endpoint;

/**
 * The true prefix-cache state of the simulated pods, for the {@code oracle-prefix-cache} scorer: what a router fed by
 * the engines' own KV-cache events would know, with no approximation and no delay.
 */
public interface PrefixCacheOracle {

	/** Prompt tokens of the request being routed, as the engine tokenizes them. */
	int promptTokens();

	/** Leading prompt tokens of the request being routed that {@code endpoint}'s engine would take from its cache now. */
	int cachedPrefixTokens(Endpoint endpoint);
}
