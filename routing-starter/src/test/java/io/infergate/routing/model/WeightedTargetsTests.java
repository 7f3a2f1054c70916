package io.infergate.routing.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class WeightedTargetsTests {

	private final ModelRoute stable = new ModelRoute("chat", "llama", "llama-3.1", null);

	private final ModelRoute canary = new ModelRoute("chat", "llama-next", "llama-3.3", null);

	private final WeightedTargets split = new WeightedTargets("chat", List.of(stable, canary), List.of(90, 10));

	@Test
	void unkeyedRequestsSplitExactlyByWeightOverEveryFullCycle() {
		Map<ModelRoute, Integer> counts = new HashMap<>();
		for (int i = 0; i < 2000; i++) {
			counts.merge(split.pick(null), 1, Integer::sum);
		}

		assertThat(counts).containsEntry(stable, 1800).containsEntry(canary, 200);
	}

	@Test
	void spreadsTheMinorityTargetOutRatherThanBunchingIt() {
		// 90/10 reduces to 9/1 slots: the canary gets one request in each run of ten
		List<Integer> canaryAt = new ArrayList<>();
		for (int i = 0; i < 30; i++) {
			if (split.pick(null) == canary) {
				canaryAt.add(i);
			}
		}

		assertThat(canaryAt).hasSize(3);
		assertThat(canaryAt.get(1) - canaryAt.get(0)).isEqualTo(10);
		assertThat(canaryAt.get(2) - canaryAt.get(1)).isEqualTo(10);
	}

	@Test
	void aStickyKeyAlwaysTakesTheSameTargetAndKeysSpreadByWeight() {
		Map<ModelRoute, Integer> counts = new HashMap<>();
		for (int user = 0; user < 10_000; user++) {
			ModelRoute first = split.pick("user-" + user);
			for (int again = 0; again < 3; again++) {
				assertThat(split.pick("user-" + user)).isSameAs(first);
			}
			counts.merge(first, 1, Integer::sum);
		}

		// 10,000 keys at 10%: one standard deviation is 30
		assertThat(counts.get(canary)).isBetween(850, 1150);
	}

	@Test
	void theSameKeyMayLandDifferentlyForAnotherModel() {
		WeightedTargets other = new WeightedTargets("summarize", List.of(stable, canary), List.of(50, 50));
		WeightedTargets same = new WeightedTargets("chat", List.of(stable, canary), List.of(50, 50));
		int differ = 0;
		for (int user = 0; user < 1000; user++) {
			if (other.pick("u" + user) != same.pick("u" + user)) {
				differ++;
			}
		}

		assertThat(differ).isBetween(400, 600);
	}

	@Test
	void aZeroWeightTargetGetsNothing() {
		WeightedTargets drained = new WeightedTargets("chat", List.of(stable, canary), List.of(1, 0));

		for (int i = 0; i < 100; i++) {
			assertThat(drained.pick(null)).isSameAs(stable);
			assertThat(drained.pick("k" + i)).isSameAs(stable);
		}
	}

	@Test
	void countsRequestsPerTarget() {
		for (int i = 0; i < 20; i++) {
			split.pick(null);
		}

		assertThat(split.report()).extracting("requests").containsExactly(18L, 2L);
		assertThat(split.report()).extracting("weight").containsExactly(90, 10);
	}

	@Test
	void theStrideSharesNoFactorWithTheSlots() {
		assertThat(WeightedTargets.coprimeStride(10)).isEqualTo(7);
		assertThat(WeightedTargets.coprimeStride(2)).isEqualTo(1);
		assertThat(WeightedTargets.coprimeStride(100)).isEqualTo(63);
	}
}
