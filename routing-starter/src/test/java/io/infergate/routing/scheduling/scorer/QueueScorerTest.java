package io.infergate.routing.scheduling.scorer;

import java.util.List;

import org.junit.jupiter.api.Test;

import static io.infergate.routing.scheduling.Fixtures.cycle;
import static io.infergate.routing.scheduling.Fixtures.endpoint;
import static io.infergate.routing.scheduling.Fixtures.score;
import static org.assertj.core.api.Assertions.assertThat;

class QueueScorerTest {

	private final QueueScorer scorer = new QueueScorer();

	@Test
	void nameIsTheYamlKey() {
		assertThat(scorer.name()).isEqualTo(QueueScorer.NAME).isEqualTo("queue");
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
