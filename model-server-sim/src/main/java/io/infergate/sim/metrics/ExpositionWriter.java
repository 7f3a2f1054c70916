package io.infergate.sim.metrics;

import io.infergate.sim.engine.HistogramSnapshot;

/**
 * Writes Prometheus text format 0.0.4 the way Python's prometheus_client does: {@code # HELP} and {@code # TYPE}
 * per family, counters with {@code _total} and {@code _created} series, histograms with cumulative
 * {@code _bucket{le=...}} series ending in {@code +Inf}, then {@code _count}, {@code _sum} and {@code _created}.
 */
final class ExpositionWriter {

	private final StringBuilder text = new StringBuilder(8192);

	/** Labels every series carries, already rendered, e.g. {@code engine="0",model_name="m"}. */
	private final String commonLabels;

	ExpositionWriter(String commonLabels) {
		this.commonLabels = commonLabels;
	}

	static String label(String name, String value) {
		StringBuilder escaped = new StringBuilder(name.length() + value.length() + 3).append(name).append("=\"");
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			switch (c) {
				case '\\' -> escaped.append("\\\\");
				case '"' -> escaped.append("\\\"");
				case '\n' -> escaped.append("\\n");
				default -> escaped.append(c);
			}
		}
		return escaped.append('"').toString();
	}

	ExpositionWriter gauge(String name, String help, double value) {
		return gauge(name, help, "", value);
	}

	/** @param extraLabels rendered labels put before the common ones, or "" */
	ExpositionWriter gauge(String name, String help, String extraLabels, double value) {
		header(name, help, "gauge");
		sample(name, extraLabels, value);
		return this;
	}

	/** @param name the family name without {@code _total} */
	ExpositionWriter counter(String name, String help, double value, double createdEpochSeconds) {
		header(name + "_total", help, "counter");
		sample(name + "_total", "", value);
		sample(name + "_created", "", createdEpochSeconds);
		return this;
	}

	ExpositionWriter histogram(String name, String help, HistogramSnapshot histogram, double createdEpochSeconds) {
		header(name, help, "histogram");
		double[] bounds = histogram.upperBoundsSeconds();
		long[] counts = histogram.cumulativeCounts();
		for (int i = 0; i < bounds.length; i++) {
			sample(name + "_bucket", "le=\"" + bounds[i] + "\"", counts[i]);
		}
		sample(name + "_bucket", "le=\"+Inf\"", histogram.count());
		sample(name + "_count", "", histogram.count());
		sample(name + "_sum", "", histogram.sumSeconds());
		sample(name + "_created", "", createdEpochSeconds);
		return this;
	}

	private void header(String name, String help, String type) {
		this.text.append("# HELP ").append(name).append(' ').append(help).append('\n');
		this.text.append("# TYPE ").append(name).append(' ').append(type).append('\n');
	}

	private void sample(String name, String extraLabels, double value) {
		this.text.append(name).append('{');
		if (!extraLabels.isEmpty()) {
			this.text.append(extraLabels);
			if (!this.commonLabels.isEmpty()) {
				this.text.append(',');
			}
		}
		this.text.append(this.commonLabels).append("} ");
		this.text.append(Double.isInfinite(value) ? (value > 0 ? "+Inf" : "-Inf") : Double.toString(value));
		this.text.append('\n');
	}

	@Override
	public String toString() {
		return this.text.toString();
	}
}
