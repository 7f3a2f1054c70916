package io.infergate.routing.scheduling.scorer;

import java.util.List;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointSnapshot;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.SchedulingCycle;

import org.springframework.stereotype.Component;

/**
 * {@code queue}: prefers the endpoint with the fewest requests waiting in the engine's queue.
 * <p>
 * {@code score = (max − waiting) / (max − min)} over the candidates that have a snapshot: the shortest queue scores
 * 1, the longest 0, and equal queues score a neutral 1. A candidate without a snapshot scores 0 and is left out of
 * the min and max. No parameters.
 */
@Component
public final class QueueScorer implements EndpointScorer {

	public static final String NAME = "queue";

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public void score(SchedulingCycle cycle, List<Endpoint> candidates, double[] scores) {
		int n = candidates.size();
		for (int i = 0; i < n; i++) {
			EndpointSnapshot snapshot = candidates.get(i).snapshot();
			scores[i] = snapshot == null ? Double.NaN : snapshot.metrics().waitingRequests();
		}
		MinMax.lowerIsBetter(scores, n);
	}
}
