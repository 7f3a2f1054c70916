package io.infergate.routing.scheduling.picker;

import org.junit.jupiter.api.Test;

import io.infergate.routing.scheduling.SchedulingCycle;

import static io.infergate.routing.scheduling.Fixtures.cycle;
import static io.infergate.routing.scheduling.picker.PickerFixtures.endpoints;
import static org.assertj.core.api.Assertions.assertThat;

class RandomPickerTests {

	private final RandomPicker picker = new RandomPicker();

	@Test
	void nameIsTheYamlKey() {
		assertThat(picker.name()).isEqualTo(RandomPicker.NAME).isEqualTo("random");
	}

	@Test
	void picksUniformlyIgnoringTotals() {
		double[] totals = { 1.0, 0.0, 0.0, 0.0 };
		SchedulingCycle cycle = cycle();
		int[] counts = new int[4];
		for (int draw = 0; draw < 40_000; draw++) {
			counts[picker.pick(cycle, endpoints(4), totals)]++;
		}

		for (int count : counts) {
			assertThat(count).isBetween(9_500, 10_500);
		}
	}

	@Test
	void sameSeedSamePicks() {
		SchedulingCycle first = cycle();
		SchedulingCycle second = cycle();
		for (int draw = 0; draw < 50; draw++) {
			assertThat(picker.pick(first, endpoints(8), new double[8]))
				.isEqualTo(picker.pick(second, endpoints(8), new double[8]));
		}
	}

	@Test
	void doesNotReadTheTotals() {
		assertThat(picker.readsTotals()).isFalse();
		assertThat(picker.pickProbabilities(new double[] { 0.1, 0.9 })).isNull();
	}
}
