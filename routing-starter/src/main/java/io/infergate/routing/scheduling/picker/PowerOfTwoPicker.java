package io.infergate.routing.scheduling.picker;

import java.util.List;
import java.util.random.RandomGenerator;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.EndpointPicker;
import io.infergate.routing.scheduling.PluginType;
import io.infergate.routing.scheduling.SchedulingCycle;

import org.springframework.stereotype.Component;

/**
 * {@code power-of-two}: draws two distinct candidates uniformly at random and picks the one with the higher total;
 * on a tie, the first drawn (itself uniformly random). With a single candidate it picks that one. The power of two
 * choices (Mitzenmacher) spreads load nearly as well as always taking the best, without herding every request onto
 * the same endpoint between two scrapes. Randomness from {@link SchedulingCycle#random()}. No parameters.
 */
public final class PowerOfTwoPicker implements EndpointPicker {

	public static final String NAME = "power-of-two";

	private final String name;

	/** The predefined instance, named after the type. */
	public PowerOfTwoPicker() {
		this(NAME);
	}

	public PowerOfTwoPicker(String name) {
		this.name = name;
	}

	@Override
	public String name() {
		return name;
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

	/**
	 * Over the n(n−1) equally likely ordered draws (first, second): candidate i wins a draw (i, j) when
	 * {@code totals[j] <= totals[i]} and a draw (j, i) when {@code totals[i] > totals[j]}. One candidate: 1.
	 */
	@Override
	public double[] pickProbabilities(double[] totals) {
		int n = totals.length;
		double[] probabilities = new double[n];
		if (n == 1) {
			probabilities[0] = 1;
			return probabilities;
		}
		double draw = 1.0 / ((double) n * (n - 1));
		for (int i = 0; i < n; i++) {
			int wins = 0;
			for (int j = 0; j < n; j++) {
				if (j != i) {
					wins += (totals[j] <= totals[i]) ? 1 : 0;
					wins += (totals[i] > totals[j]) ? 1 : 0;
				}
			}
			probabilities[i] = wins * draw;
		}
		return probabilities;
	}

	/** The {@code power-of-two} type. */
	@Component
	public static final class Type extends PluginType.WithoutParameters<EndpointPicker> {

		public Type() {
			super(EndpointPicker.class, NAME, PowerOfTwoPicker::new);
		}
	}
}
