package io.infergate.routing.scheduling.scorer;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.PluginParameterException;
import io.infergate.routing.scheduling.SchedulingCycle;
import io.infergate.routing.scheduling.load.EngineReportedLoad;
import io.infergate.routing.scheduling.scorer.MetricScorer.Direction;
import io.infergate.routing.scheduling.scorer.MetricScorer.Metric;
import io.infergate.routing.scheduling.scorer.MetricScorer.Parameters;

import static io.infergate.routing.scheduling.Fixtures.cycle;
import static io.infergate.routing.scheduling.Fixtures.endpoint;
import static io.infergate.routing.scheduling.Fixtures.score;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.within;

class MetricScorerTests {

	@Nested
	class Queue {

		private final MetricScorer scorer = MetricScorer.predefined(MetricScorer.QUEUE);

		@Test
		void nameIsTheYamlKey() {
			assertThat(scorer.name()).isEqualTo("queue");
		}

		@Test
		void equalQueuesAllScoreOne() {
			double[] scores = score(scorer, cycle(), List.of(endpoint(1, 3, 0, 0), endpoint(2, 3, 9, 0.9)));

			assertThat(scores).containsExactly(1.0, 1.0);
		}

		@Test
		void shortestQueueScoresOneLongestZeroAndTheRestLinearly() {
			double[] scores = score(scorer, cycle(),
					List.of(endpoint(1, 0, 0, 0), endpoint(2, 2, 0, 0), endpoint(3, 4, 0, 0), endpoint(4, 8, 0, 0)));

			// (8 - w) / (8 - 0)
			assertThat(scores).containsExactly(1.0, 0.75, 0.5, 0.0);
		}

		@Test
		void endpointWithoutSnapshotScoresZeroAndTakesNoPartInTheRange() {
			double[] scores = score(scorer, cycle(), List.of(endpoint(1), endpoint(2, 2, 0, 0), endpoint(3, 6, 0, 0)));

			assertThat(scores).containsExactly(0.0, 1.0, 0.0);
		}
	}

	@Nested
	class RunningRequests {

		private final MetricScorer scorer = MetricScorer.predefined(MetricScorer.RUNNING_REQUESTS);

		@Test
		void nameIsTheYamlKey() {
			assertThat(scorer.name()).isEqualTo("running-requests");
		}

		@Test
		void equalBatchesAllScoreOne() {
			assertThat(score(scorer, cycle(), List.of(endpoint(1, 0, 7, 0), endpoint(2, 5, 7, 0))))
				.containsExactly(1.0, 1.0);
		}

		@Test
		void smallestBatchScoresOneLargestZero() {
			double[] scores = score(scorer, cycle(),
					List.of(endpoint(1, 0, 10, 0), endpoint(2, 0, 30, 0), endpoint(3, 0, 50, 0)));

			// (50 - r) / (50 - 10)
			assertThat(scores).containsExactly(1.0, 0.5, 0.0);
		}

		@Test
		void endpointWithoutSnapshotScoresZero() {
			assertThat(score(scorer, cycle(), List.of(endpoint(1), endpoint(2, 0, 4, 0)))).containsExactly(0.0, 1.0);
		}
	}

	@Nested
	class LeastRequest {

		private final MetricScorer scorer = MetricScorer.predefined(MetricScorer.LEAST_REQUEST);

		@Test
		void nameIsTheYamlKey() {
			assertThat(scorer.name()).isEqualTo("least-request");
		}

		@Test
		void fewestInFlightScoresOneMostZero() {
			List<Endpoint> endpoints = List.of(inFlight(1, 1), inFlight(2, 3), inFlight(3, 5));

			// (5 - f) / (5 - 1)
			assertThat(score(scorer, cycle(), endpoints)).containsExactly(1.0, 0.5, 0.0);
		}

		@Test
		void equalCountsAllScoreOne() {
			assertThat(score(scorer, cycle(), List.of(inFlight(1, 0), inFlight(2, 0)))).containsExactly(1.0, 1.0);
		}

		@Test
		void needsNoSnapshot() {
			Endpoint unscraped = endpoint(1);

			assertThat(score(scorer, cycle(), List.of(unscraped, inFlight(2, 2)))).containsExactly(1.0, 0.0);
		}

		@Test
		void ranksByTheProfilesLoadWhenItIsEngineReported() {
			// the engine reports 9 and 2 requests; this replica sent none of them
			List<Endpoint> endpoints = List.of(endpoint(1, 4, 5, 0.1), endpoint(2, 0, 2, 0.1));
			SchedulingCycle cycle = cycle();
			cycle.useLoad(new EngineReportedLoad());

			assertThat(score(scorer, cycle, endpoints)).containsExactly(0.0, 1.0);
		}
	}

	@Nested
	class KvCache {

		private final MetricScorer scorer = MetricScorer.predefined(MetricScorer.KV_CACHE);

		@Test
		void nameIsTheYamlKey() {
			assertThat(scorer.name()).isEqualTo("kv-cache");
		}

		@Test
		void scoresOneMinusUsage() {
			double[] scores = score(scorer, cycle(),
					List.of(endpoint(1, 0, 0, 0.0), endpoint(2, 0, 0, 0.25), endpoint(3, 0, 0, 0.9),
							endpoint(4, 0, 0, 1.0)));

			assertThat(scores).containsExactly(1.0, 0.75, 1.0 - 0.9, 0.0);
		}

		@Test
		void isAbsoluteNotNormalizedOverCandidates() {
			assertThat(score(scorer, cycle(), List.of(endpoint(1, 0, 0, 0.5), endpoint(2, 0, 0, 0.5))))
				.containsExactly(0.5, 0.5);
		}

		@Test
		void endpointWithoutSnapshotScoresZero() {
			assertThat(score(scorer, cycle(), List.of(endpoint(1)))).containsExactly(0.0);
		}
	}

	/** The formulas of the four scorers the predefined instances replaced, run on the same random pools. */
	@Test
	void predefinedInstancesReproduceTheScorersTheyReplacedBitForBit() {
		SplittableRandom random = new SplittableRandom(42);
		for (int round = 0; round < 2000; round++) {
			List<Endpoint> endpoints = new ArrayList<>();
			int n = 1 + random.nextInt(6);
			for (int i = 0; i < n; i++) {
				Endpoint endpoint = random.nextInt(5) == 0 ? endpoint(i + 1)
						: endpoint(i + 1, random.nextInt(4), random.nextInt(40), random.nextInt(11) / 10.0);
				for (int k = random.nextInt(3); k > 0; k--) {
					endpoint.acquire(10);
				}
				endpoints.add(endpoint);
			}
			double[] waiting = new double[n];
			double[] running = new double[n];
			double[] load = new double[n];
			double[] kvCache = new double[n];
			for (int i = 0; i < n; i++) {
				Endpoint endpoint = endpoints.get(i);
				boolean scraped = endpoint.snapshot() != null;
				waiting[i] = scraped ? endpoint.snapshot().metrics().waitingRequests() : Double.NaN;
				running[i] = scraped ? endpoint.snapshot().metrics().runningRequests() : Double.NaN;
				load[i] = Math.max(0, endpoint.inFlightRequests());
				kvCache[i] = scraped ? 1.0 - endpoint.snapshot().metrics().kvCacheUsage() : 0;
			}
			assertThat(score(MetricScorer.predefined("queue"), cycle(), endpoints)).containsExactly(minMax(waiting));
			assertThat(score(MetricScorer.predefined("running-requests"), cycle(), endpoints))
				.containsExactly(minMax(running));
			assertThat(score(MetricScorer.predefined("least-request"), cycle(), endpoints)).containsExactly(minMax(load));
			assertThat(score(MetricScorer.predefined("kv-cache"), cycle(), endpoints)).containsExactly(kvCache);
		}
	}

	@Test
	void maximizeScoresTheHighestOneAndTheLowestZero() {
		MetricScorer scorer = new MetricScorer("busiest", new Parameters(Metric.RUNNING_REQUESTS, Direction.MAXIMIZE,
				null, null));

		double[] scores = score(scorer, cycle(),
				List.of(endpoint(1, 0, 10, 0), endpoint(2, 0, 30, 0), endpoint(3, 0, 50, 0), endpoint(4)));

		// (r - 10) / (50 - 10); no snapshot: 0
		assertThat(scores).containsExactly(0.0, 0.5, 1.0, 0.0);
	}

	@Test
	void boundsMakeTheScoreAbsoluteAndClampOutsideThem() {
		MetricScorer scorer = new MetricScorer("queue-to-10", new Parameters(Metric.WAITING_REQUESTS,
				Direction.MINIMIZE, 2.0, 10.0));

		double[] scores = score(scorer, cycle(),
				List.of(endpoint(1, 0, 0, 0), endpoint(2, 4, 0, 0), endpoint(3, 8, 0, 0), endpoint(4, 12, 0, 0)));

		// (10 - w) / (10 - 2), clamped to [0,1]
		assertThat(scores).containsExactly(new double[] { 1.0, 0.75, 0.25, 0.0 }, within(0.0));
	}

	@Test
	void maximizingWithinBoundsScoresFromTheLowerBound() {
		MetricScorer scorer = new MetricScorer("fullest", new Parameters(Metric.KV_CACHE_USAGE, Direction.MAXIMIZE,
				0.5, 1.0));

		assertThat(score(scorer, cycle(), List.of(endpoint(1, 0, 0, 0.25), endpoint(2, 0, 0, 0.75))))
			.containsExactly(0.0, 0.5);
	}

	@Test
	void boundsGoTogetherAndMinIsBelowMax() {
		assertThatExceptionOfType(PluginParameterException.class)
			.isThrownBy(() -> new MetricScorer("x", new Parameters(Metric.LOAD, Direction.MINIMIZE, 1.0, null)))
			.satisfies((ex) -> assertThat(ex.parameter()).isEqualTo("max"));
		assertThatExceptionOfType(PluginParameterException.class)
			.isThrownBy(() -> new MetricScorer("x", new Parameters(Metric.LOAD, Direction.MINIMIZE, 3.0, 3.0)))
			.withMessageContaining("must be greater than min");
	}

	@Test
	void inFlightRequestsIsTheGatewaysOwnCountWhateverTheProfilesLoad() {
		MetricScorer scorer = new MetricScorer("own", new Parameters(Metric.IN_FLIGHT_REQUESTS, Direction.MINIMIZE,
				null, null));
		SchedulingCycle cycle = cycle();
		cycle.useLoad(new EngineReportedLoad());
		// the engine reports 9 and 2 requests; this replica has 0 and 1 in flight
		List<Endpoint> endpoints = List.of(endpoint(1, 4, 5, 0.1), inFlight(endpoint(2, 0, 2, 0.1), 1));

		assertThat(score(scorer, cycle, endpoints)).containsExactly(1.0, 0.0);
	}

	/** The normalization the replaced scorers shared: (max − v) / (max − min), all equal 1, NaN 0 and left out. */
	private static double[] minMax(double[] values) {
		double min = Double.POSITIVE_INFINITY;
		double max = Double.NEGATIVE_INFINITY;
		for (double value : values) {
			if (value < min) {
				min = value;
			}
			if (value > max) {
				max = value;
			}
		}
		double[] scores = new double[values.length];
		for (int i = 0; i < values.length; i++) {
			scores[i] = Double.isNaN(values[i]) ? 0 : (max - min > 0) ? (max - values[i]) / (max - min) : 1.0;
		}
		return scores;
	}

	private static Endpoint inFlight(int port, int requests) {
		return inFlight(endpoint(port), requests);
	}

	private static Endpoint inFlight(Endpoint endpoint, int requests) {
		for (int i = 0; i < requests; i++) {
			endpoint.acquire(100);
		}
		return endpoint;
	}
}
