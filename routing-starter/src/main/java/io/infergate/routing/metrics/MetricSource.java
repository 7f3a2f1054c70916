package io.infergate.routing.metrics;

import java.util.Objects;

/**
 * Where one engine signal is read: the samples a {@link MetricSelector} matches, and either their value or, for
 * info-style metrics such as {@code vllm:cache_config_info}, one of their labels read as a number.
 * <p>
 * Written {@code selector} or {@code selector[label]}: {@code vllm:num_requests_waiting},
 * {@code nv_trt_llm_request_metrics{request_type="waiting"}}, {@code vllm:cache_config_info[block_size]}.
 *
 * @param selector which samples to read
 * @param valueLabel the label holding the number, or {@code null} to read the sample value
 */
public record MetricSource(MetricSelector selector, String valueLabel) {

	public MetricSource {
		Objects.requireNonNull(selector, "selector");
		if (valueLabel != null && !PrometheusTextParser.isValidLabelName(valueLabel)) {
			throw new IllegalArgumentException("not a valid label name: '" + valueLabel + "'");
		}
	}

	/**
	 * Parses {@code name{label="value",...}} with an optional {@code [value_label]} suffix.
	 * @throws IllegalArgumentException naming the problem and its position
	 */
	public static MetricSource parse(String text) {
		SelectorReader reader = new SelectorReader(text);
		MetricSelector selector = reader.selector();
		String valueLabel = reader.valueLabel();
		reader.expectEnd();
		return new MetricSource(selector, valueLabel);
	}

	public boolean matches(PrometheusSample sample) {
		return selector.matches(sample);
	}

	/**
	 * The number this source reads from a matching sample: its value, or its value label parsed as a decimal;
	 * {@code NaN} when that label is absent or not a number (vLLM writes {@code "None"} for unset config).
	 */
	public double read(PrometheusSample sample) {
		if (valueLabel == null) {
			return sample.value();
		}
		return parseNumber(sample.labels().get(valueLabel));
	}

	/** A label value read as a number: {@code NaN} when absent or not a decimal. */
	static double parseNumber(String text) {
		if (text == null || text.isEmpty()) {
			return Double.NaN;
		}
		try {
			return Double.parseDouble(text);
		}
		catch (NumberFormatException ex) {
			return Double.NaN;
		}
	}

	@Override
	public String toString() {
		return (valueLabel != null) ? selector + "[" + valueLabel + "]" : selector.toString();
	}
}
