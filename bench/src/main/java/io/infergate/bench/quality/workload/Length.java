package io.infergate.bench.quality.workload;

import java.util.random.RandomGenerator;

/**
 * A length in tokens (or a time in milliseconds) that is either fixed or drawn per item from a normal distribution,
 * written in a workload file as {@code 256} or {@code {mean: 256, stddev: 64}}. Draws are rounded to whole units and
 * never fall below {@code minimum}.
 *
 * @param mean the mean, or the fixed value when {@code stddev} is 0
 * @param stddev the standard deviation, 0 for a fixed length
 */
public record Length(double mean, double stddev) {

	public static Length fixed(double value) {
		return new Length(value, 0);
	}

	public boolean isFixed() {
		return stddev == 0;
	}

	/** One draw, rounded, at least {@code minimum}; a fixed length consumes no randomness. */
	public int sample(RandomGenerator random, int minimum) {
		double value = isFixed() ? mean : mean + stddev * random.nextGaussian();
		return (int) Math.max(minimum, Math.round(value));
	}

	@Override
	public String toString() {
		return isFixed() ? format(mean) : "{mean: " + format(mean) + ", stddev: " + format(stddev) + "}";
	}

	private static String format(double value) {
		return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
	}
}
