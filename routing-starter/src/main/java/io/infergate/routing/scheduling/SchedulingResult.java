package io.infergate.routing.scheduling;

import java.util.List;

import io.infergate.routing.endpoint.Endpoint;

/**
 * The outcome of one decision.
 *
 * @param profile the profile that ran
 * @param candidates the endpoints left after the filters, in order
 * @param totals weighted totals per candidate, in [0,1]
 * @param rawScores per scorer (in profile order), per candidate, the raw score in [0,1]; {@code null} unless the
 * cycle asked for scores to be recorded
 * @param filteredOut the endpoints the filters removed, each with the filter that removed it, in the order the
 * filters ran; {@code null} unless the cycle asked for scores to be recorded
 * @param chosen the pick, or {@code null} when the filters left no candidate
 * @param durationNanos time spent in filters, scorers and picker
 */
public record SchedulingResult(SchedulingProfile profile, List<Endpoint> candidates, double[] totals,
		double[][] rawScores, List<FilterRemoval> filteredOut, Endpoint chosen, long durationNanos) {

	public boolean hasPick() {
		return chosen != null;
	}
}
