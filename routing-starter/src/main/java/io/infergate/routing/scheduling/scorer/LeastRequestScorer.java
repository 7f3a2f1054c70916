package io.infergate.routing.scheduling.scorer;

import java.util.List;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.SchedulingCycle;

import org.springframework.stereotype.Component;

/**
 * {@code least-request}: prefers the endpoint with the fewest requests, as the profile's load counts them
 * ({@link SchedulingCycle#load}): by default the gateway's own in-flight requests ({@code in-flight}). Unlike
 * {@code queue} that needs no scrape, so it reacts to the gateway's own dispatches between two scrapes.
 * <p>
 * {@code score = (max − load) / (max − min)} over the candidates: the fewest scores 1, the most 0, and equal counts
 * score a neutral 1. No parameters.
 */
@Component
public final class LeastRequestScorer implements EndpointScorer {

	public static final String NAME = "least-request";

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public void score(SchedulingCycle cycle, List<Endpoint> candidates, double[] scores) {
		int n = candidates.size();
		for (int i = 0; i < n; i++) {
			scores[i] = cycle.load(candidates.get(i));
		}
		MinMax.lowerIsBetter(scores, n);
	}
}
