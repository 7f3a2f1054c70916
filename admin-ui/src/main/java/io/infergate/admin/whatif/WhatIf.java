package io.infergate.admin.whatif;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import io.infergate.routing.scheduling.EndpointPicker;
import io.infergate.routing.scheduling.SchedulingProfile;
import io.infergate.routing.scheduling.config.SchedulingProfiles;
import io.infergate.routing.scheduling.decision.DecisionOutcome;
import io.infergate.routing.scheduling.decision.DecisionRecord;
import io.infergate.routing.scheduling.decision.DecisionRecorder;

/**
 * Replays the recorded decisions of one profile with other scorer weights, and says how many picks would change
 * and where they would have gone. It reads the recorded raw scores only: nothing in the running gateway changes.
 * <p>
 * Each decision's totals are recomputed as the scheduler computes them, Σ(weight·score)/Σweight in the profile's
 * scorer order (all 0 when the weights sum to 0), and the profile's picker says how likely each candidate is to be
 * picked from them ({@link EndpointPicker#pickProbabilities}):
 * <ul>
 * <li>a deterministic picker ({@code max-score}) gives the new pick outright; a pick changes when the recorded
 * endpoint no longer has the best total; a tie for the best is a draw among the tied endpoints;</li>
 * <li>a random picker ({@code weighted-random}, {@code power-of-two}) picks at random with any weights, so the
 * figures are expected values: the chance that each recorded pick would go elsewhere, summed; the same sum at the
 * recorded weights says how much of that is the picker's own chance;</li>
 * <li>a picker that does not read the totals ({@code random}, {@code round-robin}, {@code chwbl}) picks the same
 * whatever the weights;</li>
 * <li>a picker that does not say how it uses the totals cannot be replayed.</li>
 * </ul>
 * Only decisions that picked and kept their scores count; filters do not depend on weights, so the candidates are
 * the recorded ones.
 */
public final class WhatIf {

	private final SchedulingProfiles profiles;

	private final DecisionRecorder decisions;

	public WhatIf(SchedulingProfiles profiles, DecisionRecorder decisions) {
		this.profiles = profiles;
		this.decisions = decisions;
	}

	/**
	 * Replays the kept decisions of {@code profileName} with {@code weights}: a weight given here replaces the
	 * profile's, the others keep theirs.
	 *
	 * @throws IllegalArgumentException for an unknown profile, a scorer the profile does not have, or a weight that
	 * is negative, infinite or NaN
	 */
	public WhatIfReport replay(String profileName, Map<String, Double> weights) {
		if (!profiles.names().contains(profileName)) {
			throw new IllegalArgumentException(
					"unknown profile '" + profileName + "'; defined profiles: " + new TreeSet<>(profiles.names()));
		}
		SchedulingProfile profile = profiles.get(profileName);
		return replay(profile, profile.weightsWith(weights), decisions.recent());
	}

	static WhatIfReport replay(SchedulingProfile profile, Map<String, Double> weights, List<DecisionRecord> recent) {
		EndpointPicker picker = profile.picker();
		Map<String, EndpointPicks> byEndpoint = new LinkedHashMap<>();
		List<ChangedPick> changes = new ArrayList<>();
		int considered = 0;
		int changed = 0;
		double expectedChanged = 0;
		double expectedChangedAtRecordedWeights = 0;
		String notReplayable = picker.readsTotals() ? null
				: "picker '" + picker.name() + "' does not read the weighted totals: no weights change its picks";
		for (DecisionRecord record : recent) {
			if (!profile.name().equals(record.profile()) || record.outcome() != DecisionOutcome.PICKED
					|| record.scores().isEmpty()) {
				continue;
			}
			considered++;
			List<DecisionRecord.EndpointScores> candidates = record.scores();
			int recorded = indexOf(candidates, record.chosen());
			double[] before = null;
			double[] after = null;
			if (notReplayable == null) {
				before = picker.pickProbabilities(totals(candidates, record.weights()));
				after = picker.pickProbabilities(totals(candidates, weights));
				if (after == null || before == null) {
					notReplayable = "picker '" + picker.name() + "' does not say how its pick follows from the "
							+ "totals, so its decisions cannot be replayed with other weights";
				}
			}
			boolean replayed = notReplayable == null;
			for (int i = 0; i < candidates.size(); i++) {
				String endpoint = candidates.get(i).endpoint();
				EndpointPicks picks = byEndpoint.getOrDefault(endpoint, new EndpointPicks(endpoint, 0, 0));
				double whatIf = replayed ? after[i] : (i == recorded ? 1 : 0);
				byEndpoint.put(endpoint, new EndpointPicks(endpoint, picks.recorded() + (i == recorded ? 1 : 0),
						picks.whatIf() + whatIf));
			}
			if (!replayed || recorded < 0) {
				continue;
			}
			expectedChanged += 1 - after[recorded];
			expectedChangedAtRecordedWeights += 1 - before[recorded];
			if (after[recorded] == 0) {
				changed++;
			}
			List<String> likeliest = likeliest(candidates, after);
			if (!likeliest.contains(record.chosen())) {
				changes.add(new ChangedPick(record.sequence(), record.time().toString(), record.pool(), record.model(),
						record.chosen(), likeliest, after[recorded], before[recorded]));
			}
		}
		return new WhatIfReport(profile.name(), picker.name(), notReplayable, weights, considered, changed,
				expectedChanged, expectedChangedAtRecordedWeights, List.copyOf(byEndpoint.values()), changes);
	}

	/** Σ(weight·score)/Σweight per candidate, summed in the profile's scorer order as the scheduler does. */
	static double[] totals(List<DecisionRecord.EndpointScores> candidates, Map<String, Double> weights) {
		double[] totals = new double[candidates.size()];
		double weightSum = 0;
		for (Map.Entry<String, Double> scorer : weights.entrySet()) {
			double weight = scorer.getValue();
			weightSum += weight;
			for (int i = 0; i < totals.length; i++) {
				Double score = candidates.get(i).scores().get(scorer.getKey());
				totals[i] += weight * ((score != null) ? score : 0);
			}
		}
		if (weightSum > 0) {
			for (int i = 0; i < totals.length; i++) {
				totals[i] /= weightSum;
			}
		}
		return totals;
	}

	private static int indexOf(List<DecisionRecord.EndpointScores> candidates, String endpoint) {
		for (int i = 0; i < candidates.size(); i++) {
			if (candidates.get(i).endpoint().equals(endpoint)) {
				return i;
			}
		}
		return -1;
	}

	/** The candidates with the highest chance of being picked. */
	private static List<String> likeliest(List<DecisionRecord.EndpointScores> candidates, double[] probabilities) {
		double max = 0;
		for (double probability : probabilities) {
			max = Math.max(max, probability);
		}
		List<String> likeliest = new ArrayList<>();
		for (int i = 0; i < probabilities.length; i++) {
			if (probabilities[i] == max) {
				likeliest.add(candidates.get(i).endpoint());
			}
		}
		return likeliest;
	}

	/**
	 * The replay of one profile's recorded decisions.
	 *
	 * @param profile the profile
	 * @param picker its picker
	 * @param notReplayable why the decisions cannot be replayed, or {@code null} when they were
	 * @param weights the weights replayed, by scorer
	 * @param considered recorded decisions of the profile that picked and kept their scores
	 * @param changed picks that would certainly go to another endpoint
	 * @param expectedChanged the expected number of picks that would go to another endpoint
	 * @param expectedChangedAtRecordedWeights the same at the recorded weights: a random picker's own chance
	 * @param endpoints each candidate's recorded picks and its expected picks with the new weights
	 * @param changes the decisions whose likeliest new pick is another endpoint, newest first
	 */
	public record WhatIfReport(String profile, String picker, String notReplayable, Map<String, Double> weights,
			int considered, int changed, double expectedChanged, double expectedChangedAtRecordedWeights,
			List<EndpointPicks> endpoints, List<ChangedPick> changes) {
	}

	/**
	 * One endpoint's picks.
	 *
	 * @param endpoint {@code host:port}
	 * @param recorded picks it got
	 * @param whatIf picks it would get with the new weights (expected, for a random picker)
	 */
	public record EndpointPicks(String endpoint, int recorded, double whatIf) {
	}

	/**
	 * A decision whose pick would move.
	 *
	 * @param sequence the decision's number
	 * @param time ISO-8601
	 * @param pool its pool
	 * @param model the model asked for
	 * @param recorded the endpoint it went to
	 * @param whatIf the endpoints likeliest with the new weights (several when tied)
	 * @param chanceOfRecorded the chance the recorded endpoint is still picked with the new weights
	 * @param chanceOfRecordedAtRecordedWeights its chance at the recorded weights
	 */
	public record ChangedPick(long sequence, String time, String pool, String model, String recorded,
			List<String> whatIf, double chanceOfRecorded, double chanceOfRecordedAtRecordedWeights) {
	}
}
