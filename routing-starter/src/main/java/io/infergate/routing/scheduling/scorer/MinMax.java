package io.infergate.routing.scheduling.scorer;

/** Min-max normalization shared by the scorers for which a lower value is better. */
final class MinMax {

	private MinMax() {
	}

	/**
	 * Replaces each of the first {@code count} values v by {@code (max − v) / (max − min)}, so the lowest scores 1
	 * and the highest 0; when all are equal each scores 1. A {@code NaN} value marks a candidate without the figure:
	 * it scores 0 and takes no part in the min and max.
	 */
	static void lowerIsBetter(double[] values, int count) {
		double min = Double.POSITIVE_INFINITY;
		double max = Double.NEGATIVE_INFINITY;
		for (int i = 0; i < count; i++) {
			double value = values[i];
			if (value < min) {
				min = value;
			}
			if (value > max) {
				max = value;
			}
		}
		double range = max - min;
		for (int i = 0; i < count; i++) {
			double value = values[i];
			if (Double.isNaN(value)) {
				values[i] = 0;
			}
			else {
				values[i] = range > 0 ? (max - value) / range : 1.0;
			}
		}
	}
}
