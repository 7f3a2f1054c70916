package io.infergate.routing.metrics;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A metric name plus equality matchers on labels, written as in PromQL: {@code name} or
 * {@code name{label="value",...}}. A sample matches when its name is equal and, for every matcher, its label has
 * the given value; an absent label reads as {@code ""}, so {@code foo{a=""}} matches series without {@code a}.
 * Labels the selector does not mention are ignored, so a selector keeps matching when a server adds labels.
 *
 * @param name the exact sample name
 * @param matchers label name to required value, in the order written
 */
public record MetricSelector(String name, Map<String, String> matchers) {

	public MetricSelector {
		Objects.requireNonNull(name, "name");
		if (!PrometheusTextParser.isValidMetricName(name)) {
			throw new IllegalArgumentException("not a valid metric name: '" + name + "'");
		}
		for (String label : matchers.keySet()) {
			if (!PrometheusTextParser.isValidLabelName(label)) {
				throw new IllegalArgumentException("not a valid label name: '" + label + "'");
			}
		}
		matchers = Collections.unmodifiableMap(new LinkedHashMap<>(matchers));
	}

	/** A selector on the name alone. */
	public static MetricSelector of(String name) {
		return new MetricSelector(name, Map.of());
	}

	/** A selector on the name and one label value. */
	public static MetricSelector of(String name, String label, String value) {
		return new MetricSelector(name, Map.of(label, value));
	}

	/**
	 * Parses {@code name} or {@code name{label="value",...}}; values take the escapes {@code \\}, {@code \"} and
	 * {@code \n}.
	 * @throws IllegalArgumentException naming the problem and its position
	 */
	public static MetricSelector parse(String text) {
		SelectorReader reader = new SelectorReader(text);
		MetricSelector selector = reader.selector();
		reader.expectEnd();
		return selector;
	}

	public boolean matches(PrometheusSample sample) {
		if (!name.equals(sample.name())) {
			return false;
		}
		for (Map.Entry<String, String> matcher : matchers.entrySet()) {
			if (!matcher.getValue().equals(sample.labels().getOrEmpty(matcher.getKey()))) {
				return false;
			}
		}
		return true;
	}

	/** The PromQL form, which {@link #parse} reads back. */
	@Override
	public String toString() {
		if (matchers.isEmpty()) {
			return name;
		}
		StringBuilder text = new StringBuilder(name).append('{');
		boolean first = true;
		for (Map.Entry<String, String> matcher : matchers.entrySet()) {
			if (!first) {
				text.append(',');
			}
			first = false;
			text.append(matcher.getKey()).append("=\"");
			Labels.appendEscaped(text, matcher.getValue());
			text.append('"');
		}
		return text.append('}').toString();
	}
}
