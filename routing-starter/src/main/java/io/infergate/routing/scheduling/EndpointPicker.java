package io.infergate.routing.scheduling;

import java.util.List;

import io.infergate.routing.endpoint.Endpoint;

/** Chooses one candidate from the weighted totals. A profile has exactly one picker. */
public interface EndpointPicker extends SchedulingPlugin {

	/**
	 * Returns the index of the chosen candidate. {@code candidates} is never empty, and {@code totals[i]} is the
	 * weighted total of candidate i, in [0,1] (0 for every candidate when the profile has no scorers).
	 */
	int pick(SchedulingCycle cycle, List<Endpoint> candidates, double[] totals);
}
