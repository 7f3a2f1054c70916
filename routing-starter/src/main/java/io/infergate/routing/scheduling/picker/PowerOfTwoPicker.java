package io.infergate.routing.scheduling.picker;

import java.util.List;
import java.util.random.RandomGenerator;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.EndpointPicker;
import io.infergate.routing.scheduling.SchedulingCycle;

import org.springframework.stereotype.Component;

/**
 * {@code power-of-two}: draws two distinct candidates uniformly at random and picks the one with the higher total;
 * on a tie, the first drawn (itself uniformly random). With a single candidate it picks that one. The power of two
 * choices (Mitzenmacher) spreads load nearly as well as always taking the best, without herding every request onto
 * the same endpoint between two scrapes. Randomness from {@link SchedulingCycle#random()}. No parameters.
 */
@Component
public final class PowerOfTwoPicker implements EndpointPicker {

	public static final String NAME = "power-of-two";

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public int pick(SchedulingCycle cycle, List<Endpoint> candidates, double[] totals) {
		int n = candidates.size();
		if (n == 1) {
			return 0;
		}
		RandomGenerator random = cycle.random();
		int first = random.nextInt(n);
		int second = random.nextInt(n - 1);
		if (second >= first) {
			second++;
		}
		return totals[second] > totals[first] ? second : first;
	}
}
