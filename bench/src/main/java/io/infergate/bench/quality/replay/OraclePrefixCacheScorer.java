package io.infergate.bench.quality.replay;

import java.util.List;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.SchedulingCycle;

/**
 * {@code oracle-prefix-cache} (bench only): prefers the endpoint whose engine really holds the longest leading part
 * of the prompt, read from the simulated engines' KV caches at the decision's instant.
 * <p>
 * {@code score = cachedTokens / promptTokens}, the engine's own count of leading tokens it would serve from cache
 * (whole blocks) over the prompt's tokens: the same ratio as {@code prefix-cache}'s matched blocks over the request's
 * blocks, without the index's approximation (eviction it cannot see, blocks it assumes the engine kept). No
 * parameters.
 */
public final class OraclePrefixCacheScorer implements EndpointScorer {

	public static final String NAME = "oracle-prefix-cache";

	private final PrefixCacheOracle oracle;

	public OraclePrefixCacheScorer(PrefixCacheOracle oracle) {
		this.oracle = oracle;
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public void score(SchedulingCycle cycle, List<Endpoint> candidates, double[] scores) {
		double promptTokens = oracle.promptTokens();
		if (promptTokens <= 0) {
			return;
		}
		for (int i = 0, n = candidates.size(); i < n; i++) {
			scores[i] = oracle.cachedPrefixTokens(candidates.get(i)) / promptTokens;
		}
	}
}
