package io.infergate.routing.scheduling.scorer;

import java.util.List;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointSnapshot;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.SchedulingCycle;

import org.springframework.stereotype.Component;

/**
 * {@code kv-cache}: prefers the endpoint with the most free KV cache.
 * <p>
 * {@code score = 1 − kvCacheUsage}, an absolute measure (not normalized over the candidates), so an empty cache
 * scores 1 and a full one 0. A candidate without a snapshot scores 0. No parameters.
 */
@Component
public final class KvCacheScorer implements EndpointScorer {

	public static final String NAME = "kv-cache";

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public void score(SchedulingCycle cycle, List<Endpoint> candidates, double[] scores) {
		for (int i = 0, n = candidates.size(); i < n; i++) {
			EndpointSnapshot snapshot = candidates.get(i).snapshot();
			scores[i] = snapshot == null ? 0 : 1.0 - snapshot.metrics().kvCacheUsage();
		}
	}
}
