package io.infergate.routing.scheduling.picker;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.infergate.routing.scheduling.SchedulingCycle;

import static io.infergate.routing.scheduling.Fixtures.cycle;
import static io.infergate.routing.scheduling.picker.PickerFixtures.endpoints;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class MaxScorePickerTests {

	private final MaxScorePicker picker = new MaxScorePicker();

	@Test
	void nameIsTheYamlKey() {
		assertThat(picker.name()).isEqualTo(MaxScorePicker.NAME).isEqualTo("max-score");
	}

	@Test
	void picksTheHighestTotal() {
		assertThat(picker.pick(cycle(), endpoints(4), new double[] { 0.2, 0.9, 0.5, 0.89 })).isEqualTo(1);
	}

	@Test
	void breaksTiesUniformlyOverEveryTiedCandidate() {
		double[] totals = { 0.7, 0.1, 0.7, 0.3, 0.7 };
		SchedulingCycle cycle = cycle();
		int[] counts = new int[totals.length];
		for (int draw = 0; draw < 30_000; draw++) {
			counts[picker.pick(cycle, endpoints(5), totals)]++;
		}

		assertThat(counts[1]).isZero();
		assertThat(counts[3]).isZero();
		for (int tied : new int[] { 0, 2, 4 }) {
			assertThat(counts[tied]).isBetween(9_500, 10_500);
		}
	}

	@Test
	void picksEveryTiedCandidateWithAFixedSeed() {
		SchedulingCycle cycle = cycle();
		Set<Integer> picked = new HashSet<>();
		for (int draw = 0; draw < 100; draw++) {
			picked.add(picker.pick(cycle, endpoints(3), new double[] { 0.0, 0.0, 0.0 }));
		}

		assertThat(picked).containsExactlyInAnyOrder(0, 1, 2);
	}

	@Test
	void givesEachTiedBestCandidateAnEqualChanceAndTheOthersNone() {
		assertThat(picker.pickProbabilities(new double[] { 0.7, 0.1, 0.7, 0.3 }))
			.containsExactly(new double[] { 0.5, 0, 0.5, 0 }, within(1e-12));
		assertThat(picker.pickProbabilities(new double[] { 0.2, 0.9 })).containsExactly(0, 1);
		assertThat(picker.readsTotals()).isTrue();
	}
}
