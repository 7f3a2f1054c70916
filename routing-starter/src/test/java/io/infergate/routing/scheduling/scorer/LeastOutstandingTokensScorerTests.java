package io.infergate.routing.scheduling.scorer;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.infergate.routing.endpoint.Endpoint;

import static io.infergate.routing.scheduling.Fixtures.cycle;
import static io.infergate.routing.scheduling.Fixtures.endpoint;
import static io.infergate.routing.scheduling.Fixtures.score;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LeastOutstandingTokensScorerTests {

	@Test
	void nameIsTheYamlKey() {
		assertThat(scorer(1).name()).isEqualTo(LeastOutstandingTokensScorer.NAME)
			.isEqualTo("least-outstanding-tokens");
	}

	@Test
	void scoresTheRatioToTheLeastLoaded() {
		List<Endpoint> endpoints = List.of(tokens(1, 999), tokens(2, 1999), tokens(3, 3999));

		// (min + s) / (t + s) with s = 1: 1000/1000, 1000/2000, 1000/4000
		assertThat(score(scorer(1), cycle(), endpoints)).containsExactly(1.0, 0.5, 0.25);
	}

	@Test
	void smoothingSoftensTheGapToAnIdleEndpoint() {
		List<Endpoint> endpoints = List.of(tokens(1, 0), tokens(2, 1000));

		assertThat(score(scorer(1), cycle(), endpoints)).containsExactly(new double[] { 1.0, 1.0 / 1001 },
				within(1e-12));
		// s = 1000: 1000/1000, 1000/2000
		assertThat(score(scorer(1000), cycle(), endpoints)).containsExactly(1.0, 0.5);
	}

	@Test
	void equalLoadsAllScoreOne() {
		assertThat(score(scorer(1), cycle(), List.of(tokens(1, 500), tokens(2, 500)))).containsExactly(1.0, 1.0);
		assertThat(score(scorer(1), cycle(), List.of(tokens(1, 0), tokens(2, 0)))).containsExactly(1.0, 1.0);
	}

	private static LeastOutstandingTokensScorer scorer(long smoothingTokens) {
		return new LeastOutstandingTokensScorer(LeastOutstandingTokensScorer.NAME,
				new LeastOutstandingTokensScorer.Parameters(smoothingTokens));
	}

	private static Endpoint tokens(int port, long tokens) {
		Endpoint endpoint = endpoint(port);
		endpoint.acquire(tokens);
		return endpoint;
	}
}
