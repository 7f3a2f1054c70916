package io.infergate.routing.metrics;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The label set of one Prometheus sample, in the order the exposition wrote it. Immutable.
 * <p>
 * A label that is absent reads as the empty string, as in Prometheus itself: {@code foo{a=""}} and {@code foo}
 * name the same series.
 */
public final class Labels {

	public static final Labels EMPTY = new Labels(new String[0]);

	/** Names at even indexes, values at odd ones. */
	private final String[] namesAndValues;

	private Labels(String[] namesAndValues) {
		this.namesAndValues = namesAndValues;
	}

	/** Labels from alternating names and values: {@code of("engine", "0", "model_name", "m")}. */
	public static Labels of(String... namesAndValues) {
		if (namesAndValues.length % 2 != 0) {
			throw new IllegalArgumentException("expected name/value pairs, got " + namesAndValues.length + " strings");
		}
		return (namesAndValues.length == 0) ? EMPTY : new Labels(namesAndValues.clone());
	}

	/** Takes ownership of the array; the parser hands over a fresh one per sample. */
	static Labels wrap(String[] namesAndValues) {
		return new Labels(namesAndValues);
	}

	public int size() {
		return namesAndValues.length / 2;
	}

	/** The value of the first label with this name, or {@code null} when there is none. */
	public String get(String name) {
		for (int i = 0; i < namesAndValues.length; i += 2) {
			if (namesAndValues[i].equals(name)) {
				return namesAndValues[i + 1];
			}
		}
		return null;
	}

	/** The value of the label, or {@code ""} when there is none (Prometheus's reading of an absent label). */
	public String getOrEmpty(String name) {
		String value = get(name);
		return (value != null) ? value : "";
	}

	/**
	 * Whether both sets hold the same labels, in any order, apart from {@code ignoredName}. Used to tell series
	 * that differ only in a rank label.
	 */
	public boolean equalsIgnoring(Labels other, String ignoredName) {
		return containsAllIgnoring(other, ignoredName) && other.containsAllIgnoring(this, ignoredName);
	}

	private boolean containsAllIgnoring(Labels other, String ignoredName) {
		for (int i = 0; i < other.namesAndValues.length; i += 2) {
			String name = other.namesAndValues[i];
			if (!name.equals(ignoredName) && !other.namesAndValues[i + 1].equals(getOrEmpty(name))) {
				return false;
			}
		}
		return true;
	}

	/** The labels as a map in written order; the first wins if a name repeats. */
	public Map<String, String> asMap() {
		Map<String, String> map = new LinkedHashMap<>();
		for (int i = 0; i < namesAndValues.length; i += 2) {
			map.putIfAbsent(namesAndValues[i], namesAndValues[i + 1]);
		}
		return map;
	}

	@Override
	public boolean equals(Object other) {
		return (this == other)
				|| (other instanceof Labels labels && Arrays.equals(namesAndValues, labels.namesAndValues));
	}

	@Override
	public int hashCode() {
		return Arrays.hashCode(namesAndValues);
	}

	/** Exposition syntax, {@code {name="value",...}}, with {@code \\}, {@code \"} and newline escaped. */
	@Override
	public String toString() {
		StringBuilder text = new StringBuilder("{");
		for (int i = 0; i < namesAndValues.length; i += 2) {
			if (i > 0) {
				text.append(',');
			}
			text.append(namesAndValues[i]).append("=\"");
			appendEscaped(text, namesAndValues[i + 1]);
			text.append('"');
		}
		return text.append('}').toString();
	}

	static void appendEscaped(StringBuilder text, String value) {
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			switch (c) {
				case '\\' -> text.append("\\\\");
				case '"' -> text.append("\\\"");
				case '\n' -> text.append("\\n");
				default -> text.append(c);
			}
		}
	}
}
