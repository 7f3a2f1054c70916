package io.infergate.routing.scheduling;

import java.net.URI;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointMetrics;
import io.infergate.routing.endpoint.EndpointSnapshot;
import io.infergate.routing.request.InferenceRequest;

/** Hand-made endpoints, requests and cycles for scheduling tests. */
public final class Fixtures {

	/** The decision time of every cycle made here, epoch milliseconds. */
	public static final long NOW_MILLIS = 1_700_000_000_000L;

	public static final String POOL = "llama";

	private Fixtures() {
	}

	/** An endpoint at {@code 10.0.0.1:port} with no snapshot yet. */
	public static Endpoint endpoint(int port) {
		return new Endpoint(POOL, URI.create("http://10.0.0.1:" + port));
	}

	/** An endpoint whose snapshot, taken just now, has these figures and no LoRA. */
	public static Endpoint endpoint(int port, int waiting, int running, double kvCacheUsage) {
		return endpoint(port, metrics(waiting, running, kvCacheUsage), 0);
	}

	/** An endpoint whose snapshot, {@code ageMillis} old at {@link #NOW_MILLIS}, has {@code metrics}. */
	public static Endpoint endpoint(int port, EndpointMetrics metrics, long ageMillis) {
		Endpoint endpoint = endpoint(port);
		endpoint.publish(new EndpointSnapshot(metrics, NOW_MILLIS - ageMillis, 0));
		return endpoint;
	}

	public static EndpointMetrics metrics(int waiting, int running, double kvCacheUsage) {
		return new EndpointMetrics(waiting, running, kvCacheUsage, 16, 29000, 0, Set.of(), Set.of());
	}

	public static EndpointMetrics loraMetrics(int maxLoras, Set<String> running, Set<String> waiting) {
		return new EndpointMetrics(0, 0, 0.0, 16, 29000, maxLoras, running, waiting);
	}

	public static InferenceRequest request(String pool, String adapter) {
		return new InferenceRequest("demo-llama", pool, "meta-llama/Llama-3.1-8B-Instruct", adapter,
				"Hello there", 3, 64, false, null, 0);
	}

	public static SchedulingCycle cycle() {
		return cycle(request(POOL, null));
	}

	public static SchedulingCycle cycle(InferenceRequest request) {
		return new SchedulingCycle(request, NOW_MILLIS, new SplittableRandom(42), false);
	}

	/** Runs {@code scorer} over {@code candidates} and returns the scores. */
	public static double[] score(EndpointScorer scorer, SchedulingCycle cycle, List<Endpoint> candidates) {
		double[] scores = new double[candidates.size()];
		scorer.score(cycle, candidates, scores);
		return scores;
	}
}
