package io.infergate.routing.scheduling.scorer;

import java.util.List;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointSnapshot;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.SchedulingCycle;

import org.springframework.stereotype.Component;

/**
 * {@code running-requests}: prefers the endpoint with the smallest running batch.
 * <p>
 * {@code score = (max − running) / (max − min)} over the candidates that have a snapshot: the fewest running
 * requests score 1, the most 0, and equal counts score a neutral 1. A candidate without a snapshot scores 0 and is
 * left out of the min and max. No parameters.
 */
@Component
public final class RunningRequestsScorer implements EndpointScorer {

	public static final String NAME = "running-requests";

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public void score(SchedulingCycle cycle, List<Endpoint> candidates, double[] scores) {
		int n = candidates.size();
		for (int i = 0; i < n; i++) {
			EndpointSnapshot snapshot = candidates.get(i).snapshot();
			scores[i] = snapshot == null ? Double.NaN : snapshot.metrics().runningRequests();
		}
		MinMax.lowerIsBetter(scores, n);
	}
}
