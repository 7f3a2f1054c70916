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

	/**
	 * The chance of each candidate being picked, given only its weighted total, or {@code null} when the pick
	 * depends on more than the totals. It lets recorded decisions be replayed with other weights (the dashboard's
	 * what-if) without running the picker: a deterministic picker returns 1 for its pick.
	 */
	default double[] pickProbabilities(double[] totals) {
		return null;
	}

	/** Whether the pick depends on the totals at all; one that ignores them picks the same whatever the weights. */
	default boolean readsTotals() {
		return true;
	}
}
