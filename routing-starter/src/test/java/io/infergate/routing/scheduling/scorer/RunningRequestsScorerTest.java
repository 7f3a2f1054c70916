package io.infergate.routing.scheduling.scorer;

import java.util.List;

import org.junit.jupiter.api.Test;

import static io.infergate.routing.scheduling.Fixtures.cycle;
import static io.infergate.routing.scheduling.Fixtures.endpoint;
import static io.infergate.routing.scheduling.Fixtures.score;
import static org.assertj.core.api.Assertions.assertThat;

class RunningRequestsScorerTest {

	private final RunningRequestsScorer scorer = new RunningRequestsScorer();

	@Test
	void nameIsTheYamlKey() {
		assertThat(scorer.name()).isEqualTo(RunningRequestsScorer.NAME).isEqualTo("running-requests");
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
