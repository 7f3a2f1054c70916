package io.infergate.routing.metrics;

import java.util.Objects;

/**
 * One sample line of a Prometheus exposition: {@code name{labels} value [timestamp]}.
 *
 * @param name the sample name as written, suffix included ({@code vllm:prompt_tokens_total},
 * {@code vllm:e2e_request_latency_seconds_bucket})
 * @param labels the label set, empty when the line has none
 * @param value the value; may be {@code NaN} or infinite
 * @param timestampMillis the optional timestamp in milliseconds since the epoch, or {@link #NO_TIMESTAMP}
 */
public record PrometheusSample(String name, Labels labels, double value, long timestampMillis) {

	/** Marks a sample written without a timestamp. */
	public static final long NO_TIMESTAMP = Long.MIN_VALUE;

	public PrometheusSample {
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(labels, "labels");
	}

	public boolean hasTimestamp() {
		return timestampMillis != NO_TIMESTAMP;
	}
}
