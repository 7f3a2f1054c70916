package io.infergate.routing.scheduling;

import java.util.List;

import io.infergate.routing.endpoint.Endpoint;

/**
 * Rates each candidate in [0,1], 1 being the best place for the request. Scorers never see their weight; the
 * {@link Scheduler} weighs and sums them.
 */
public interface EndpointScorer extends SchedulingPlugin {

	/**
	 * Writes the score of {@code candidates.get(i)} to {@code scores[i]} for every i. The array is at least as long
	 * as the list and arrives zeroed. Values outside [0,1] are clamped by the scheduler.
	 */
	void score(SchedulingCycle cycle, List<Endpoint> candidates, double[] scores);
}
