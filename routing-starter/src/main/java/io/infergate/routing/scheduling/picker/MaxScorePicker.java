package io.infergate.routing.scheduling.picker;

import java.util.List;
import java.util.random.RandomGenerator;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.EndpointPicker;
import io.infergate.routing.scheduling.PluginType;
import io.infergate.routing.scheduling.SchedulingCycle;

import org.springframework.stereotype.Component;

/**
 * {@code max-score}: picks the candidate with the highest total. Candidates tied at the highest total (exactly
 * equal) are chosen among uniformly at random, in one pass (reservoir sampling over the ties: the k-th tie found
 * replaces the current choice with probability 1/k). Randomness from {@link SchedulingCycle#random()}. No
 * parameters.
 */
public final class MaxScorePicker implements EndpointPicker {

	public static final String NAME = "max-score";

	private final String name;

	/** The predefined instance, named after the type. */
	public MaxScorePicker() {
		this(NAME);
	}

	public MaxScorePicker(String name) {
		this.name = name;
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	public int pick(SchedulingCycle cycle, List<Endpoint> candidates, double[] totals) {
		int n = candidates.size();
		int best = 0;
		int ties = 1;
		RandomGenerator random = null;
		for (int i = 1; i < n; i++) {
			double total = totals[i];
			if (total > totals[best]) {
				best = i;
				ties = 1;
			}
			else if (total == totals[best]) {
				ties++;
				if (random == null) {
					random = cycle.random();
				}
				if (random.nextInt(ties) == 0) {
					best = i;
				}
			}
		}
		return best;
	}

	/** 1/k for each of the k candidates tied at the highest total, 0 for the others. */
	@Override
	public double[] pickProbabilities(double[] totals) {
		double max = Double.NEGATIVE_INFINITY;
		for (double total : totals) {
			max = Math.max(max, total);
		}
		int ties = 0;
		for (double total : totals) {
			if (total == max) {
				ties++;
			}
		}
		double[] probabilities = new double[totals.length];
		for (int i = 0; i < totals.length; i++) {
			probabilities[i] = (totals[i] == max) ? 1.0 / ties : 0;
		}
		return probabilities;
	}

	/** The {@code max-score} type. */
	@Component
	public static final class Type extends PluginType.WithoutParameters<EndpointPicker> {

		public Type() {
			super(EndpointPicker.class, NAME, MaxScorePicker::new);
		}
	}
}
