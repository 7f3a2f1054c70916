package io.infergate.routing.scheduling.picker;

import org.junit.jupiter.api.Test;

import io.infergate.routing.scheduling.SchedulingCycle;

import static io.infergate.routing.scheduling.Fixtures.cycle;
import static io.infergate.routing.scheduling.picker.PickerFixtures.endpoints;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class WeightedRandomPickerTests {

	private static final int DRAWS = 100_000;

	private final WeightedRandomPicker picker = new WeightedRandomPicker();

	@Test
	void nameIsTheYamlKey() {
		assertThat(picker.name()).isEqualTo(WeightedRandomPicker.NAME).isEqualTo("weighted-random");
	}

	@Test
	void picksInProportionToTheTotals() {
		double[] frequencies = frequencies(new double[] { 0.1, 0.3, 0.6 });

		// expected 0.1/1.0, 0.3/1.0, 0.6/1.0
		assertThat(frequencies[0]).isCloseTo(0.1, within(0.01));
		assertThat(frequencies[1]).isCloseTo(0.3, within(0.01));
		assertThat(frequencies[2]).isCloseTo(0.6, within(0.01));
	}

	@Test
	void neverPicksAZeroTotalWhileAnotherIsPositive() {
		double[] frequencies = frequencies(new double[] { 0.0, 0.01, 0.0 });

		assertThat(frequencies).containsExactly(0.0, 1.0, 0.0);
	}

	@Test
	void picksUniformlyWhenEveryTotalIsZero() {
		double[] frequencies = frequencies(new double[] { 0.0, 0.0, 0.0, 0.0 });

		for (double frequency : frequencies) {
			assertThat(frequency).isCloseTo(0.25, within(0.01));
		}
	}

	private double[] frequencies(double[] totals) {
		SchedulingCycle cycle = cycle();
		int[] counts = new int[totals.length];
		for (int draw = 0; draw < DRAWS; draw++) {
			counts[picker.pick(cycle, endpoints(totals.length), totals)]++;
		}
		double[] frequencies = new double[totals.length];
		for (int i = 0; i < counts.length; i++) {
			frequencies[i] = counts[i] / (double) DRAWS;
		}
		return frequencies;
	}

	@Test
	void givesEachCandidateItsShareOfThePositiveTotals() {
		// 0.6 / (0.6 + 0.2 + 0.2), zero never picked while another is positive; all zero: uniform
		assertThat(picker.pickProbabilities(new double[] { 0.6, 0.2, 0.2, 0.0 }))
			.containsExactly(new double[] { 0.6, 0.2, 0.2, 0.0 }, within(1e-12));
		assertThat(picker.pickProbabilities(new double[] { 0, 0, 0, 0 }))
			.containsExactly(new double[] { 0.25, 0.25, 0.25, 0.25 }, within(1e-12));
	}
}
