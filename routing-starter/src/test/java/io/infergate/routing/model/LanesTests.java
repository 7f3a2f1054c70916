package io.infergate.routing.model;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LanesTests {

	private final ModelRoute shortLane = new ModelRoute("summarize", "llama", "llama-8b", null);

	private final ModelRoute longLane = new ModelRoute("summarize", "llama-long", "llama-8b", null);

	@Test
	void theFirstLaneThatTakesTheTokensWins() {
		Lanes lanes = new Lanes(List.of(shortLane, longLane), Arrays.asList(8192, null));

		assertThat(lanes.pick(8192)).isSameAs(shortLane);
		assertThat(lanes.pick(8193)).isSameAs(longLane);
		assertThat(lanes.report()).extracting("requests").containsExactly(1L, 1L);
	}

	@Test
	void noLaneTakesARequestLargerThanEveryBound() {
		Lanes lanes = new Lanes(List.of(shortLane, longLane), List.of(8192, 131072));

		assertThat(lanes.pick(131073)).isNull();
		assertThat(lanes.largestTaken()).isEqualTo(131072);
	}
}
