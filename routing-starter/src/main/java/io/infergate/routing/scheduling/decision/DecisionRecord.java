package io.infergate.routing.scheduling.decision;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.request.Settlement;
import io.infergate.routing.scheduling.FilterRemoval;
import io.infergate.routing.scheduling.SchedulingCycle;
import io.infergate.routing.scheduling.SchedulingProfile;
import io.infergate.routing.scheduling.SchedulingResult;

/**
 * One scheduling decision as the dashboard and {@code /actuator/inference} show it.
 *
 * @param sequence the recorder's number for the record: records kept later have higher numbers
 * @param time the decision's time ({@link SchedulingCycle#nowMillis()})
 * @param pool the request's pool
 * @param model the model the client asked for
 * @param adapter the LoRA adapter, or {@code null}
 * @param profile the profile's name, or {@code null} when scheduling failed before one was resolved
 * @param picker the profile's picker, or {@code null} without a profile
 * @param weights each scorer's weight in the profile, by scorer name in the profile's order; empty without one
 * @param chosen the chosen endpoint's {@code host:port}, or {@code null}
 * @param outcome how the decision ended
 * @param candidateCount endpoints left after the filters
 * @param durationNanos time spent scheduling
 * @param scores per candidate after the filters, in order: each scorer's raw score and the weighted total; empty
 * when the filters left none or the scores were not kept
 * @param filteredOut the endpoints the filters removed and which filter removed each, in the order the filters
 * ran; empty when none was removed or the decision was not recorded while it was made
 * @param settlement what the request used and cost, filled in when its response ends; {@code null} when unknown
 */
public record DecisionRecord(long sequence, Instant time, String pool, String model, String adapter, String profile,
		String picker, Map<String, Double> weights, String chosen, DecisionOutcome outcome, int candidateCount,
		long durationNanos, List<EndpointScores> scores, List<FilteredOut> filteredOut, Settlement settlement) {

	public DecisionRecord {
		weights = Collections.unmodifiableMap(new LinkedHashMap<>(weights));
		scores = List.copyOf(scores);
		filteredOut = List.copyOf(filteredOut);
	}

	/** A record without the request's settlement. */
	public DecisionRecord(long sequence, Instant time, String pool, String model, String adapter, String profile,
			String picker, Map<String, Double> weights, String chosen, DecisionOutcome outcome, int candidateCount,
			long durationNanos, List<EndpointScores> scores, List<FilteredOut> filteredOut) {
		this(sequence, time, pool, model, adapter, profile, picker, weights, chosen, outcome, candidateCount,
				durationNanos, scores, filteredOut, null);
	}

	/**
	 * One candidate's scores.
	 *
	 * @param endpoint {@code host:port}
	 * @param scores raw score in [0,1] by scorer name, in the profile's order
	 * @param total the weighted total, Σ(weight·score)/Σweight
	 */
	public record EndpointScores(String endpoint, Map<String, Double> scores, double total) {

		public EndpointScores {
			scores = Collections.unmodifiableMap(new LinkedHashMap<>(scores));
		}
	}

	/**
	 * An endpoint a filter removed.
	 *
	 * @param endpoint {@code host:port}
	 * @param filter the filter's name
	 */
	public record FilteredOut(String endpoint, String filter) {
	}

	/** The record of {@code result}, with {@code chosen} as the endpoint the request went to. */
	static DecisionRecord of(long sequence, SchedulingCycle cycle, SchedulingResult result, DecisionOutcome outcome,
			Endpoint chosen) {
		InferenceRequest request = cycle.request();
		SchedulingProfile profile = result.profile();
		return new DecisionRecord(sequence, Instant.ofEpochMilli(cycle.nowMillis()), request.pool(),
				request.requestedModel(), request.adapter(), profile.name(), profile.picker().name(),
				profile.weights(), chosen == null ? null : chosen.id().toString(), outcome, result.candidates().size(),
				result.durationNanos(), scores(result), filteredOut(result), request.settlement());
	}

	/** The record of a decision that threw. */
	static DecisionRecord ofError(long sequence, SchedulingCycle cycle, SchedulingProfile profile,
			long durationNanos) {
		InferenceRequest request = cycle.request();
		return new DecisionRecord(sequence, Instant.ofEpochMilli(cycle.nowMillis()), request.pool(),
				request.requestedModel(), request.adapter(), profile == null ? null : profile.name(),
				profile == null ? null : profile.picker().name(), profile == null ? Map.of() : profile.weights(),
				null, DecisionOutcome.ERROR, 0, durationNanos, List.of(), List.of(), request.settlement());
	}

	private static List<EndpointScores> scores(SchedulingResult result) {
		double[][] raw = result.rawScores();
		List<Endpoint> candidates = result.candidates();
		if (raw == null || candidates.isEmpty()) {
			return List.of();
		}
		List<SchedulingProfile.WeightedScorer> scorers = result.profile().scorers();
		List<EndpointScores> scores = new ArrayList<>(candidates.size());
		for (int i = 0; i < candidates.size(); i++) {
			Map<String, Double> byScorer = new LinkedHashMap<>();
			for (int k = 0; k < scorers.size(); k++) {
				byScorer.put(scorers.get(k).scorer().name(), raw[k][i]);
			}
			scores.add(new EndpointScores(candidates.get(i).id().toString(), byScorer, result.totals()[i]));
		}
		return scores;
	}

	private static List<FilteredOut> filteredOut(SchedulingResult result) {
		List<FilterRemoval> removals = result.filteredOut();
		if (removals == null || removals.isEmpty()) {
			return List.of();
		}
		List<FilteredOut> filteredOut = new ArrayList<>(removals.size());
		for (FilterRemoval removal : removals) {
			filteredOut.add(new FilteredOut(removal.endpoint().id().toString(), removal.filter()));
		}
		return filteredOut;
	}
}
