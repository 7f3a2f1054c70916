package io.infergate.routing.scheduling.scorer;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.prefix.PrefixIndex;
import io.infergate.routing.prefix.PrefixIndexProperties;
import io.infergate.routing.scheduling.SchedulingCycle;

import static io.infergate.routing.prefix.PrefixFixtures.diverging;
import static io.infergate.routing.prefix.PrefixFixtures.prompt;
import static io.infergate.routing.prefix.PrefixFixtures.request;
import static io.infergate.routing.scheduling.Fixtures.cycle;
import static io.infergate.routing.scheduling.Fixtures.endpoint;
import static io.infergate.routing.scheduling.Fixtures.score;
import static org.assertj.core.api.Assertions.assertThat;

class PrefixCacheScorerTests {

	private final PrefixIndex index = new PrefixIndex(PrefixIndexProperties.defaults());

	private final PrefixCacheScorer scorer = new PrefixCacheScorer(index);

	private final Endpoint all = endpoint(1);

	private final Endpoint threeOfFour = endpoint(2);

	private final Endpoint half = endpoint(3);

	private final Endpoint none = endpoint(4);

	@Test
	void nameIsTheYamlKey() {
		assertThat(scorer.name()).isEqualTo(PrefixCacheScorer.NAME).isEqualTo("prefix-cache");
	}

	@Test
	void scoresTheLeadingBlocksHeldOverTheRequestsBlocks() {
		dispatch(prompt("p", 4), all);
		dispatch(diverging("p", 3, 4), threeOfFour);
		dispatch(diverging("p", 2, 6), half);
		dispatch(prompt("q", 4), none);

		double[] scores = score(scorer, cycle(request(prompt("p", 4))), List.of(all, threeOfFour, half, none));

		// 4/4, 3/4, 2/4, 0/4
		assertThat(scores).containsExactly(1.0, 0.75, 0.5, 0.0);
	}

	@Test
	void aTrailingPartialBlockIsNotPartOfTheTotal() {
		dispatch(prompt("p", 2), half);

		double[] scores = score(scorer, cycle(request(prompt("p", 4) + "t".repeat(40))), List.of(half, none));

		// 2 of 4 full blocks; the 40 trailing characters count for nothing
		assertThat(scores).containsExactly(0.5, 0.0);
	}

	@Test
	void aRequestWithoutAFullBlockScoresZeroEverywhere() {
		dispatch("hi", all);

		assertThat(score(scorer, cycle(request("hi")), List.of(all, none))).containsExactly(0.0, 0.0);
	}

	@Test
	void recordsEachDispatchInTheIndex() {
		SchedulingCycle cycle = cycle(request(prompt("p", 3)));
		score(scorer, cycle, List.of(all, none));

		scorer.onDispatch(cycle, none);

		assertThat(score(scorer, cycle(request(prompt("p", 3))), List.of(all, none))).containsExactly(0.0, 1.0);
		assertThat(index.stats().dispatchedRequests()).isEqualTo(1);
	}

	private void dispatch(String prompt, Endpoint endpoint) {
		index.onDispatch(cycle(request(prompt)), endpoint);
	}
}
