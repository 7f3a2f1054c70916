package io.infergate.routing.scheduling.scorer;

import java.util.List;

import org.junit.jupiter.api.Test;

import static io.infergate.routing.scheduling.Fixtures.cycle;
import static io.infergate.routing.scheduling.Fixtures.endpoint;
import static io.infergate.routing.scheduling.Fixtures.score;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class KvCacheScorerTest {

	private final KvCacheScorer scorer = new KvCacheScorer();

	@Test
	void nameIsTheYamlKey() {
		assertThat(scorer.name()).isEqualTo(KvCacheScorer.NAME).isEqualTo("kv-cache");
	}

	@Test
	void scoresOneMinusUsage() {
		double[] scores = score(scorer, cycle(),
				List.of(endpoint(1, 0, 0, 0.0), endpoint(2, 0, 0, 0.25), endpoint(3, 0, 0, 0.9),
						endpoint(4, 0, 0, 1.0)));

		assertThat(scores).containsExactly(new double[] { 1.0, 0.75, 0.1, 0.0 }, within(1e-12));
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
