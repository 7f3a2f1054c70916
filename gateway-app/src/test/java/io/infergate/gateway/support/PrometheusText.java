package io.infergate.gateway.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Samples of a Prometheus text exposition, for assertions on what a scrape shows. */
public final class PrometheusText {

	/** One sample: its metric name, labels and value. */
	public record Sample(String name, Map<String, String> labels, double value) {
	}

	private final List<Sample> samples;

	private PrometheusText(List<Sample> samples) {
		this.samples = samples;
	}

	public static PrometheusText parse(String exposition) {
		List<Sample> samples = new ArrayList<>();
		for (String line : exposition.split("\n")) {
			if (line.isBlank() || line.startsWith("#")) {
				continue;
			}
			int brace = line.indexOf('{');
			int space = line.lastIndexOf(' ');
			String name;
			Map<String, String> labels = new LinkedHashMap<>();
			if (brace >= 0 && brace < space) {
				name = line.substring(0, brace);
				int close = line.lastIndexOf('}');
				parseLabels(line.substring(brace + 1, close), labels);
				space = line.indexOf(' ', close);
			}
			else {
				name = line.substring(0, line.indexOf(' '));
				space = line.indexOf(' ');
			}
			String value = line.substring(space + 1).trim().split(" ")[0];
			samples.add(new Sample(name, labels, Double.parseDouble(value)));
		}
		return new PrometheusText(samples);
	}

	private static void parseLabels(String text, Map<String, String> labels) {
		int i = 0;
		while (i < text.length()) {
			int equals = text.indexOf('=', i);
			String key = text.substring(i, equals).trim();
			StringBuilder value = new StringBuilder();
			int j = equals + 2;
			while (text.charAt(j) != '"') {
				if (text.charAt(j) == '\\') {
					j++;
				}
				value.append(text.charAt(j));
				j++;
			}
			labels.put(key, value.toString());
			i = j + 1;
			if (i < text.length() && text.charAt(i) == ',') {
				i++;
			}
		}
	}

	/** Every sample named {@code name} whose labels include all of {@code labels}. */
	public List<Sample> samples(String name, Map<String, String> labels) {
		return samples.stream()
			.filter((s) -> s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet()))
			.toList();
	}

	/** The value of the one sample named {@code name} with {@code labels}, or NaN when there is none. */
	public double value(String name, Map<String, String> labels) {
		List<Sample> matching = samples(name, labels);
		if (matching.size() > 1) {
			throw new IllegalArgumentException(matching.size() + " samples of " + name + " match " + labels);
		}
		return matching.isEmpty() ? Double.NaN : matching.get(0).value();
	}

	/** The metric names of every sample. */
	public Set<String> names() {
		Set<String> names = new TreeSet<>();
		samples.forEach((s) -> names.add(s.name()));
		return names;
	}
}
