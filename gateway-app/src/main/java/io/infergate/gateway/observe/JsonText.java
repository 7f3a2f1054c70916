package io.infergate.gateway.observe;

import java.util.concurrent.TimeUnit;

import tools.jackson.core.io.JsonStringEncoder;

/**
 * The few JSON values the gateway writes by hand into a {@link StringBuilder}, where a line is built on a hot or a
 * background path without an object mapper: the access log, the traffic capture and the OpenAI-style errors.
 */
public final class JsonText {

	private JsonText() {
	}

	/** Appends {@code "name":}. */
	public static StringBuilder name(StringBuilder json, String name) {
		return json.append('"').append(name).append("\":");
	}

	/** Appends {@code value} as a quoted JSON string, or {@code null}. */
	public static StringBuilder string(StringBuilder json, String value) {
		if (value == null) {
			return json.append("null");
		}
		json.append('"');
		JsonStringEncoder.getInstance().quoteAsString(value, json);
		return json.append('"');
	}

	/** Appends {@code nanos} as milliseconds with three decimals, or {@code null} for a negative (unknown) figure. */
	public static StringBuilder millis(StringBuilder json, long nanos) {
		if (nanos < 0) {
			return json.append("null");
		}
		return json.append(TimeUnit.NANOSECONDS.toMicros(nanos) / 1000.0);
	}
}
