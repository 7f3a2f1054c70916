package io.infergate.routing.actuate;

import java.util.List;
import java.util.Map;

import io.infergate.routing.prefix.PrefixIndexStats;
import io.infergate.routing.replica.DispatchSharingStats;

/**
 * The body of {@code GET /actuator/inference}. Field names are part of the contract that tests, the dashboard and
 * operators' scripts read. {@code prefixIndex} (the approximate prefix index's size, blocks per endpoint, memory and
 * the hit ratio of its own predictions) is {@code null} when no profile uses the index; {@code dispatchSharing} (what
 * this replica told its peers and heard from them) is {@code null} unless dispatch sharing is on.
 */
public record InferenceReport(List<Pool> pools, List<Decision> decisions, PrefixIndexStats prefixIndex,
		DispatchSharingStats dispatchSharing) {

	public record Pool(String name, String engine, String profile, String failureMode, List<Endpoint> endpoints) {
	}

	/** One endpoint; {@code metrics} is {@code null} until its first successful scrape. */
	public record Endpoint(String id, boolean ready, Metrics metrics, InFlight inFlight) {
	}

	public record Metrics(int waitingRequests, int runningRequests, double kvCacheUsage, int blockSize,
			int numGpuBlocks, int maxLoras, List<String> runningAdapters, List<String> waitingAdapters,
			long ageMillis, boolean stale) {
	}

	public record InFlight(int requests, long tokens) {
	}

	/**
	 * One decision; {@code scores} maps each candidate endpoint to its scorers' raw scores in [0,1] and the weighted
	 * total.
	 */
	public record Decision(String time, String pool, String model, String adapter, String profile, String chosen,
			String outcome, Map<String, EndpointScores> scores) {
	}

	public record EndpointScores(Map<String, Double> scorers, double total) {
	}
}
