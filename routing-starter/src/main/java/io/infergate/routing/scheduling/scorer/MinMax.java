package io.infergate.routing.scheduling.scorer;

/**
 * Normalization of a signal's values into scores in [0,1], for the {@link MetricScorer}. A {@code NaN} value marks a
 * candidate without the signal: it scores 0 and takes no part in the min and max.
 */
final class MinMax {

	private MinMax() {
	}

	/**
	 * Replaces each of the first {@code count} values v by {@code (max − v) / (max − min)}, so the lowest scores 1
	 * and the highest 0; when all are equal each scores 1.
	 */
	static void lowerIsBetter(double[] values, int count) {
		normalize(values, count, false);
	}

	/**
	 * Replaces each of the first {@code count} values v by {@code (v − min) / (max − min)}, so the highest scores 1
	 * and the lowest 0; when all are equal each scores 1.
	 */
	static void higherIsBetter(double[] values, int count) {
		normalize(values, count, true);
	}

	/**
	 * Replaces each of the first {@code count} values v by {@code (max − v) / (max − min)}, or
	 * {@code (v − min) / (max − min)} when {@code higherIsBetter}, for fixed bounds {@code min < max}, clamped to
	 * [0,1].
	 */
	static void withinBounds(double[] values, int count, double min, double max, boolean higherIsBetter) {
		double range = max - min;
		for (int i = 0; i < count; i++) {
			double value = values[i];
			if (Double.isNaN(value)) {
				values[i] = 0;
			}
			else {
				double score = higherIsBetter ? (value - min) / range : (max - value) / range;
				values[i] = Math.max(0, Math.min(1, score));
			}
		}
	}

	private static void normalize(double[] values, int count, boolean higherIsBetter) {
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
			else if (range > 0) {
				values[i] = higherIsBetter ? (value - min) / range : (max - value) / range;
			}
			else {
				values[i] = 1.0;
			}
		}
	}
}
