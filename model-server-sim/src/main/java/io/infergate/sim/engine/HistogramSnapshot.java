package io.infergate.sim.engine;

/**
 * A histogram's figures at one moment.
 *
 * @param upperBoundsSeconds bucket upper bounds ({@code le}), ascending, without {@code +Inf}
 * @param cumulativeCounts observations {@code <=} each bound
 * @param sumSeconds sum of all observations
 * @param count all observations, i.e. the {@code +Inf} bucket
 */
public record HistogramSnapshot(double[] upperBoundsSeconds, long[] cumulativeCounts, double sumSeconds,
		long count) {

	/** Mean observation in seconds, 0 when empty. */
	public double meanSeconds() {
		return (this.count == 0) ? 0 : this.sumSeconds / this.count;
	}
}
