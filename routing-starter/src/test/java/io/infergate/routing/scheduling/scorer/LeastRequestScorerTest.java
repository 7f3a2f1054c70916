package io.infergate.routing.scheduling.scorer;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.SchedulingCycle;
import io.infergate.routing.scheduling.load.EngineReportedLoad;

import static io.infergate.routing.scheduling.Fixtures.cycle;
import static io.infergate.routing.scheduling.Fixtures.endpoint;
import static io.infergate.routing.scheduling.Fixtures.score;
import static org.assertj.core.api.Assertions.assertThat;

class LeastRequestScorerTest {

	private final LeastRequestScorer scorer = new LeastRequestScorer();

	@Test
	void nameIsTheYamlKey() {
		assertThat(scorer.name()).isEqualTo(LeastRequestScorer.NAME).isEqualTo("least-request");
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

	private static Endpoint inFlight(int port, int requests) {
		Endpoint endpoint = endpoint(port);
		for (int i = 0; i < requests; i++) {
			endpoint.acquire(100);
		}
		return endpoint;
	}
}
