package io.infergate.routing.scheduling.scorer;

import java.util.List;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.SchedulingCycle;

import org.springframework.stereotype.Component;

/**
 * {@code least-request}: prefers the endpoint to which the gateway itself has the fewest requests in flight
 * ({@link Endpoint#inFlightRequests()}). Unlike {@code queue} it needs no scrape, so it reacts to the gateway's own
 * dispatches between two scrapes.
 * <p>
 * {@code score = (max − inFlight) / (max − min)} over the candidates: the fewest in flight scores 1, the most 0, and
 * equal counts score a neutral 1. No parameters.
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
			scores[i] = candidates.get(i).inFlightRequests();
		}
		MinMax.lowerIsBetter(scores, n);
	}
}
