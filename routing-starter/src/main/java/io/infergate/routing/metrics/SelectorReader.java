package io.infergate.routing.metrics;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads the configuration syntax of {@link MetricSelector} and {@link MetricSource}:
 * {@code name{label="value",...}[value_label]}, whitespace allowed between tokens. Errors name the position.
 */
final class SelectorReader {

	private final String text;

	private int position;

	SelectorReader(String text) {
		this.text = text;
	}

	MetricSelector selector() {
		skipSpaces();
		int nameStart = position;
		while (position < text.length() && PrometheusTextParser.isNameChar(text.charAt(position), true)) {
			position++;
		}
		String name = text.substring(nameStart, position);
		if (!PrometheusTextParser.isValidMetricName(name)) {
			throw error(nameStart, "expected a metric name");
		}
		Map<String, String> matchers = new LinkedHashMap<>();
		skipSpaces();
		if (position < text.length() && text.charAt(position) == '{') {
			position++;
			while (true) {
				skipSpaces();
				if (peek() == '}') {
					position++;
					break;
				}
				String label = labelName();
				skipSpaces();
				if (peek() != '=' || (position + 1 < text.length() && text.charAt(position + 1) == '~')) {
					throw error(position, "expected '=' (only equality matchers are supported)");
				}
				position++;
				skipSpaces();
				String value = quoted();
				if (matchers.put(label, value) != null) {
					throw error(position, "label '" + label + "' matched twice");
				}
				skipSpaces();
				if (peek() == ',') {
					position++;
				}
				else if (peek() != '}') {
					throw error(position, "expected ',' or '}'");
				}
			}
		}
		return new MetricSelector(name, matchers);
	}

	/** An optional {@code [label]} suffix, or {@code null}. */
	String valueLabel() {
		skipSpaces();
		if (peek() != '[') {
			return null;
		}
		position++;
		skipSpaces();
		String label = labelName();
		skipSpaces();
		if (peek() != ']') {
			throw error(position, "expected ']'");
		}
		position++;
		return label;
	}

	void expectEnd() {
		skipSpaces();
		if (position < text.length()) {
			throw error(position, "unexpected '" + text.charAt(position) + "'");
		}
	}

	private String labelName() {
		int start = position;
		while (position < text.length() && PrometheusTextParser.isNameChar(text.charAt(position), false)) {
			position++;
		}
		String label = text.substring(start, position);
		if (!PrometheusTextParser.isValidLabelName(label)) {
			throw error(start, "expected a label name");
		}
		return label;
	}

	private String quoted() {
		if (peek() != '"') {
			throw error(position, "expected '\"'");
		}
		int start = position++;
		StringBuilder value = new StringBuilder();
		while (position < text.length()) {
			char c = text.charAt(position++);
			if (c == '"') {
				return value.toString();
			}
			if (c == '\\' && position < text.length()) {
				char escaped = text.charAt(position++);
				switch (escaped) {
					case 'n' -> value.append('\n');
					case '\\', '"' -> value.append(escaped);
					default -> throw error(position - 2, "unknown escape '\\" + escaped + "'");
				}
			}
			else {
				value.append(c);
			}
		}
		throw error(start, "unterminated label value");
	}

	private char peek() {
		return (position < text.length()) ? text.charAt(position) : '\0';
	}

	private void skipSpaces() {
		while (position < text.length() && Character.isWhitespace(text.charAt(position))) {
			position++;
		}
	}

	private IllegalArgumentException error(int at, String problem) {
		return new IllegalArgumentException(problem + " at position " + at + " of '" + text + "'");
	}
}
