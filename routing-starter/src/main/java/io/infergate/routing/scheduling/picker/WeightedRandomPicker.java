package io.infergate.routing.scheduling.picker;

import java.util.List;
import java.util.random.RandomGenerator;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.EndpointPicker;
import io.infergate.routing.scheduling.PluginType;
import io.infergate.routing.scheduling.SchedulingCycle;

import org.springframework.stereotype.Component;

/**
 * {@code weighted-random}: picks candidate i with probability {@code totals[i] / Σ totals}, by A-Res
 * (Efraimidis and Spirakis, "Weighted random sampling with a reservoir", 2006): each candidate draws
 * {@code u ~ U(0,1)} and gets the key {@code u^(1/w)}, and the largest key wins. Keys are compared as
 * {@code ln(u)/w}, which orders them the same and does not underflow for small weights.
 * <p>
 * A candidate with a zero total is never picked while another has a positive one. When every total is zero the
 * pick is uniform. Randomness from {@link SchedulingCycle#random()}. No parameters.
 */
public final class WeightedRandomPicker implements EndpointPicker {

	public static final String NAME = "weighted-random";

	private final String name;

	/** The predefined instance, named after the type. */
	public WeightedRandomPicker() {
		this(NAME);
	}

	public WeightedRandomPicker(String name) {
		this.name = name;
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	public int pick(SchedulingCycle cycle, List<Endpoint> candidates, double[] totals) {
		int n = candidates.size();
		RandomGenerator random = cycle.random();
		int best = -1;
		double bestKey = Double.NEGATIVE_INFINITY;
		for (int i = 0; i < n; i++) {
			double weight = totals[i];
			if (!(weight > 0)) {
				continue;
			}
			double key = Math.log(random.nextDouble()) / weight;
			if (best < 0 || key > bestKey) {
				best = i;
				bestKey = key;
			}
		}
		return best >= 0 ? best : random.nextInt(n);
	}

	/** totals[i] / Σ totals over the positive totals; uniform when none is positive. */
	@Override
	public double[] pickProbabilities(double[] totals) {
		int n = totals.length;
		double sum = 0;
		for (double total : totals) {
			if (total > 0) {
				sum += total;
			}
		}
		double[] probabilities = new double[n];
		for (int i = 0; i < n; i++) {
			probabilities[i] = (sum > 0) ? Math.max(0, totals[i]) / sum : 1.0 / n;
		}
		return probabilities;
	}

	/** The {@code weighted-random} type. */
	@Component
	public static final class Type extends PluginType.WithoutParameters<EndpointPicker> {

		public Type() {
			super(EndpointPicker.class, NAME, WeightedRandomPicker::new);
		}
	}
}
