package io.infergate.routing.scheduling.picker;

import org.junit.jupiter.api.Test;

import io.infergate.routing.scheduling.SchedulingCycle;

import static io.infergate.routing.scheduling.Fixtures.cycle;
import static io.infergate.routing.scheduling.picker.PickerFixtures.endpoints;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class PowerOfTwoPickerTests {

	private final PowerOfTwoPicker picker = new PowerOfTwoPicker();

	@Test
	void nameIsTheYamlKey() {
		assertThat(picker.name()).isEqualTo(PowerOfTwoPicker.NAME).isEqualTo("power-of-two");
	}

	@Test
	void neverPicksTheWorstAndPicksByRankAsTwoDistinctDrawsPredict() {
		double[] totals = { 0.4, 0.1, 0.9, 0.6 };
		SchedulingCycle cycle = cycle();
		int draws = 60_000;
		int[] counts = new int[totals.length];
		for (int draw = 0; draw < draws; draw++) {
			counts[picker.pick(cycle, endpoints(4), totals)]++;
		}

		// rank r of n wins the pairs with every lower-ranked one: P = 2·(r−1) / (n·(n−1)) = (r−1)/6 for n = 4
		assertThat(counts[1]).isZero();
		assertThat(counts[0] / (double) draws).isCloseTo(1 / 6.0, within(0.01));
		assertThat(counts[3] / (double) draws).isCloseTo(2 / 6.0, within(0.01));
		assertThat(counts[2] / (double) draws).isCloseTo(3 / 6.0, within(0.01));
	}

	@Test
	void withTwoCandidatesAlwaysPicksTheBetter() {
		SchedulingCycle cycle = cycle();
		for (int draw = 0; draw < 100; draw++) {
			assertThat(picker.pick(cycle, endpoints(2), new double[] { 0.3, 0.2 })).isZero();
		}
	}

	@Test
	void withOneCandidatePicksIt() {
		assertThat(picker.pick(cycle(), endpoints(1), new double[] { 0.0 })).isZero();
	}

	@Test
	void givesEachCandidateTheShareOfOrderedDrawsItWins() {
		// 3 candidates, 6 ordered draws of 1/6. Best (0.9) wins all 4 draws it is in: 4/6; middle (0.5) wins
		// both draws against the worst: 2/6; worst: 0. A tie (0.5, 0.5) goes to the first drawn: 1/2 each.
		assertThat(picker.pickProbabilities(new double[] { 0.5, 0.9, 0.1 }))
			.containsExactly(new double[] { 2 / 6.0, 4 / 6.0, 0 }, within(1e-12));
		assertThat(picker.pickProbabilities(new double[] { 0.5, 0.5 }))
			.containsExactly(new double[] { 0.5, 0.5 }, within(1e-12));
		assertThat(picker.pickProbabilities(new double[] { 0.3 })).containsExactly(1.0);
	}
}
