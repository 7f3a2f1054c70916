package io.infergate.routing.metrics;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class MetricSourceTests {

	@Test
	void parsesNameLabelMatchersAndValueLabel() {
		MetricSource source = MetricSource.parse(" my_cache_info { pool = \"gpu\" , tier=\"a\\\"b\" , } [ block_size ] ");

		assertThat(source.selector().name()).isEqualTo("my_cache_info");
		assertThat(source.selector().matchers()).containsExactly(Map.entry("pool", "gpu"), Map.entry("tier", "a\"b"));
		assertThat(source.valueLabel()).isEqualTo("block_size");
	}

	@Test
	void printsWhatItParses() {
		for (String text : new String[] { "vllm:num_requests_waiting",
				"nv_trt_llm_request_metrics{request_type=\"waiting\"}", "a{b=\"c\\\\d\\\"e\\nf\",g=\"\"}[h]" }) {
			assertThat(MetricSource.parse(text)).hasToString(text);
			assertThat(MetricSource.parse(MetricSource.parse(text).toString())).isEqualTo(MetricSource.parse(text));
		}
	}

	@Test
	void matchesOnNameAndListedLabelsOnly() {
		MetricSelector selector = MetricSelector.parse("nv_trt_llm_request_metrics{request_type=\"waiting\"}");

		assertThat(selector.matches(sample("nv_trt_llm_request_metrics", "model", "m", "request_type", "waiting")))
			.isTrue();
		assertThat(selector.matches(sample("nv_trt_llm_request_metrics", "request_type", "scheduled"))).isFalse();
		assertThat(selector.matches(sample("nv_trt_llm_request_metrics_total", "request_type", "waiting"))).isFalse();
	}

	@Test
	void matchesAnAbsentLabelAsEmpty() {
		MetricSelector selector = MetricSelector.parse("q{tier=\"\"}");

		assertThat(selector.matches(sample("q"))).isTrue();
		assertThat(selector.matches(sample("q", "tier", "a"))).isFalse();
	}

	@Test
	void readsTheValueOrTheValueLabel() {
		PrometheusSample sample = new PrometheusSample("vllm:cache_config_info",
				Labels.of("block_size", "16", "num_gpu_blocks", "None"), 1.0, PrometheusSample.NO_TIMESTAMP);

		assertThat(MetricSource.parse("vllm:cache_config_info").read(sample)).isEqualTo(1.0);
		assertThat(MetricSource.parse("vllm:cache_config_info[block_size]").read(sample)).isEqualTo(16.0);
		assertThat(MetricSource.parse("vllm:cache_config_info[num_gpu_blocks]").read(sample)).isNaN();
		assertThat(MetricSource.parse("vllm:cache_config_info[absent]").read(sample)).isNaN();
	}

	@Test
	void rejectsMalformedSelectorsNamingTheProblem() {
		assertThatIllegalArgumentException().isThrownBy(() -> MetricSource.parse(""))
			.withMessageStartingWith("expected a metric name at position 0");
		assertThatIllegalArgumentException().isThrownBy(() -> MetricSource.parse("9lives"))
			.withMessageStartingWith("expected a metric name");
		assertThatIllegalArgumentException().isThrownBy(() -> MetricSource.parse("q{a!=\"b\"}"))
			.withMessageStartingWith("expected '=' (only equality matchers are supported)");
		assertThatIllegalArgumentException().isThrownBy(() -> MetricSource.parse("q{a=b}"))
			.withMessageStartingWith("expected '\"'");
		assertThatIllegalArgumentException().isThrownBy(() -> MetricSource.parse("q{a=\"b}"))
			.withMessageStartingWith("unterminated label value");
		assertThatIllegalArgumentException().isThrownBy(() -> MetricSource.parse("q{a=\"b\" c=\"d\"}"))
			.withMessageStartingWith("expected ',' or '}'");
		assertThatIllegalArgumentException().isThrownBy(() -> MetricSource.parse("q{a=\"b\",a=\"c\"}"))
			.withMessageStartingWith("label 'a' matched twice");
		assertThatIllegalArgumentException().isThrownBy(() -> MetricSource.parse("q[block_size"))
			.withMessageStartingWith("expected ']'");
		assertThatIllegalArgumentException().isThrownBy(() -> MetricSource.parse("q extra"))
			.withMessageStartingWith("unexpected 'e' at position 2");
		assertThatIllegalArgumentException().isThrownBy(() -> MetricSelector.parse("q[block_size]"))
			.withMessageStartingWith("unexpected '['");
	}

	private static PrometheusSample sample(String name, String... labels) {
		return new PrometheusSample(name, Labels.of(labels), 1.0, PrometheusSample.NO_TIMESTAMP);
	}
}
