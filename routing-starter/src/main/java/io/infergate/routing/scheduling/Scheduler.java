package io.infergate.routing.scheduling;

import java.util.Arrays;
import java.util.List;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.SchedulingProfile.WeightedScorer;

/**
 * Runs one profile over a pool's endpoints: the filters in order, then every scorer, then the picker on the
 * weighted totals, then the dispatch listeners. The profile's {@link EndpointLoad} is set on the cycle first. A
 * cycle that records scores also keeps which filter removed which endpoint; other cycles pay nothing for that.
 * <p>
 * The total of candidate i is Σ(weight·score) / Σweight. Dividing by the sum of the weights changes no pick
 * (every total is scaled by the same positive constant, so the argmax, the order for power-of-two and the
 * A-Res proportions are unchanged) but keeps totals in [0,1], so totals of different profiles, and of one
 * profile after its weights are tuned, can be read on one scale in decision records and on the dashboard.
 * <p>
 * Stateless and thread-safe; it has no Spring or gateway types so the bench harness can call it directly.
 */
public final class Scheduler {

	public SchedulingResult schedule(SchedulingProfile profile, SchedulingCycle cycle, List<Endpoint> endpoints) {
		long start = System.nanoTime();
		cycle.useLoad(profile.load());
		boolean recording = cycle.recordScores();
		List<FilterRemoval> removals = null;
		List<Endpoint> candidates = endpoints;
		for (EndpointFilter filter : profile.filters()) {
			List<Endpoint> passed = filter.filter(cycle, candidates);
			if (recording) {
				removals = FilterRemoval.collect(removals, filter, candidates, passed);
			}
			candidates = passed;
			if (candidates.isEmpty()) {
				break;
			}
		}
		List<FilterRemoval> filteredOut = recording ? (removals != null ? removals : List.of()) : null;
		int n = candidates.size();
		if (n == 0) {
			return new SchedulingResult(profile, candidates, new double[0], null, filteredOut, null,
					System.nanoTime() - start);
		}
		List<WeightedScorer> scorers = profile.scorers();
		double[] totals = new double[n];
		double[][] raw = cycle.recordScores() ? new double[scorers.size()][] : null;
		double[] scores = scorers.isEmpty() ? null : new double[n];
		for (int k = 0; k < scorers.size(); k++) {
			WeightedScorer weighted = scorers.get(k);
			if (k > 0) {
				Arrays.fill(scores, 0.0);
			}
			weighted.scorer().score(cycle, candidates, scores);
			double weight = weighted.weight();
			for (int i = 0; i < n; i++) {
				double score = clamp(scores[i]);
				scores[i] = score;
				totals[i] += weight * score;
			}
			if (raw != null) {
				raw[k] = scores.clone();
			}
		}
		double weightSum = profile.weightSum();
		if (weightSum > 0) {
			for (int i = 0; i < n; i++) {
				totals[i] /= weightSum;
			}
		}
		int index = profile.picker().pick(cycle, candidates, totals);
		Endpoint chosen = candidates.get(index);
		for (DispatchListener listener : profile.dispatchListeners()) {
			listener.onDispatch(cycle, chosen);
		}
		return new SchedulingResult(profile, candidates, totals, raw, filteredOut, chosen, System.nanoTime() - start);
	}

	private static double clamp(double score) {
		if (!(score > 0)) {
			return 0; // also NaN
		}
		return Math.min(score, 1);
	}
}
