package io.infergate.routing.metrics;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

class PrometheusTextParserTests {

	private final PrometheusTextParser full = PrometheusTextParser.full();

	@Test
	void readsNameLabelsAndValue() {
		PrometheusSamples parsed = full.parse("vllm:num_requests_waiting{engine=\"0\",model_name=\"m\"} 3.0\n");

		assertThat(parsed.samples()).containsExactly(new PrometheusSample("vllm:num_requests_waiting",
				Labels.of("engine", "0", "model_name", "m"), 3.0, PrometheusSample.NO_TIMESTAMP));
		assertThat(parsed.skippedLines()).isZero();
	}

	@Test
	void readsSampleWithoutLabels() {
		PrometheusSample sample = single("process_open_fds 97.0");

		assertThat(sample.labels()).isSameAs(Labels.EMPTY);
		assertThat(sample.value()).isEqualTo(97.0);
	}

	@Test
	void unescapesBackslashQuoteAndNewlineInLabelValues() {
		PrometheusSample sample = single("m{path=\"C:\\\\models\\\\llama\",quote=\"say \\\"hi\\\"\",text=\"a\\nb\"} 1");

		assertThat(sample.labels().get("path")).isEqualTo("C:\\models\\llama");
		assertThat(sample.labels().get("quote")).isEqualTo("say \"hi\"");
		assertThat(sample.labels().get("text")).isEqualTo("a\nb");
	}

	@Test
	void keepsUnknownEscapesAsWritten() {
		assertThat(single("m{a=\"x\\ty\"} 1").labels().get("a")).isEqualTo("x\\ty");
	}

	@Test
	void decodesUtf8LabelValues() {
		assertThat(single("m{model=\"Llama-3 \u00e9t\u00e9 \u6a21\u578b\"} 1").labels().get("model"))
			.isEqualTo("Llama-3 \u00e9t\u00e9 \u6a21\u578b");
	}

	@Test
	void readsScientificNotation() {
		assertThat(values("a 1.7520522116616015e+09", "b 6.5309679616e+010", "c 1e-7", "d -2.5E3", "e .5", "f 5.",
				"g +3", "h 123456789012345678901234567890", "i 0.30000000000000004", "j 1e400", "k 1e-400"))
			.containsExactly(1.7520522116616015e+09, 6.5309679616e+10, 1e-7, -2500.0, 0.5, 5.0, 3.0,
					1.2345678901234568e29, 0.30000000000000004, Double.POSITIVE_INFINITY, 0.0);
	}

	@Test
	void readsDecimalsExactlyAsDoubleParseDoubleDoes() {
		for (String text : List.of("0.4213", "0.6577897252432742", "1773.3081722068787", "0.000123", "9007199254740993",
				"4.381952e+06", "-0.0", "1e22", "1e23", "123456789012345e-22")) {
			assertThat(values("m " + text)).as(text).containsExactly(Double.parseDouble(text));
		}
	}

	@Test
	void readsNaNAndInfinities() {
		assertThat(values("a NaN", "b +Inf", "c -Inf", "d Inf", "e nan", "f +inf"))
			.containsExactly(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
					Double.NaN, Double.POSITIVE_INFINITY);
	}

	@Test
	void readsBucketBoundsAsLabels() {
		PrometheusSample sample = single("vllm:e2e_request_latency_seconds_bucket{engine=\"0\",le=\"+Inf\"} 4725.0");

		assertThat(sample.labels().get("le")).isEqualTo("+Inf");
		assertThat(sample.value()).isEqualTo(4725.0);
	}

	@Test
	void readsOptionalTimestamps() {
		PrometheusSamples parsed = full.parse("a 1 1752052211000\nb 2\nc 3 -5\n");

		assertThat(parsed.samples()).extracting(PrometheusSample::timestampMillis)
			.containsExactly(1752052211000L, PrometheusSample.NO_TIMESTAMP, -5L);
		assertThat(parsed.samples().get(0).hasTimestamp()).isTrue();
		assertThat(parsed.samples().get(1).hasTimestamp()).isFalse();
	}

	@Test
	void acceptsCrlfLineEndings() {
		PrometheusSamples parsed = full.parse("# TYPE a gauge\r\na{x=\"1\"} 1\r\nb 2 1000\r\n");

		assertThat(parsed.samples()).extracting(PrometheusSample::name).containsExactly("a", "b");
		assertThat(parsed.samples().get(1).timestampMillis()).isEqualTo(1000L);
		assertThat(parsed.types()).containsEntry("a", "gauge");
		assertThat(parsed.skippedLines()).isZero();
	}

	@Test
	void ignoresBlankLinesAndSurroundingWhitespace() {
		PrometheusSamples parsed = full.parse("\n\n   \n\ta 1\n\t \nb{ x = \"1\" , } \t 2 \t\n\n");

		assertThat(parsed.samples()).extracting(PrometheusSample::name).containsExactly("a", "b");
		assertThat(parsed.samples().get(1).labels()).isEqualTo(Labels.of("x", "1"));
		assertThat(parsed.skippedLines()).isZero();
	}

	@Test
	void readsInputWithoutFinalNewline() {
		assertThat(values("a 1", "b 2")).containsExactly(1.0, 2.0);
	}

	@Test
	void readsLabelSetsThatGrowBetweenLines() {
		PrometheusSamples parsed = full.parse("""
				vllm:num_requests_running{model_name="m"} 1
				vllm:num_requests_running{model_name="m",engine="0"} 2
				vllm:num_requests_running{model_name="m",engine="0",dp_rank="0",extra="x"} 3
				""");

		assertThat(parsed.samples()).extracting((sample) -> sample.labels().size()).containsExactly(1, 2, 4);
	}

	@Test
	void recordsDeclaredTypesAndResolvesSuffixedSamplesToTheirFamily() {
		PrometheusSamples parsed = full.parse(Expositions.bytes("vllm-v1.prom"));

		assertThat(parsed.types()).containsEntry("vllm:num_requests_waiting", "gauge")
			.containsEntry("vllm:prompt_tokens_total", "counter")
			.containsEntry("vllm:time_to_first_token_seconds", "histogram")
			.containsEntry("http_request_size_bytes", "summary");
		assertThat(parsed.familyOf("vllm:time_to_first_token_seconds_bucket")).isEqualTo("vllm:time_to_first_token_seconds");
		assertThat(parsed.familyOf("vllm:time_to_first_token_seconds_created")).isEqualTo("vllm:time_to_first_token_seconds");
		assertThat(parsed.familyOf("vllm:prompt_tokens_total")).isEqualTo("vllm:prompt_tokens_total");
		assertThat(parsed.familyOf("http_request_size_bytes_sum")).isEqualTo("http_request_size_bytes");
	}

	@Test
	void keepsCountersTotalAndCreatedSamples() {
		PrometheusSamples parsed = full.parse(Expositions.bytes("vllm-v1.prom"));

		assertThat(parsed.samples("vllm:prompt_tokens_total")).singleElement()
			.extracting(PrometheusSample::value).isEqualTo(5.020315e+06);
		assertThat(parsed.samples("vllm:prompt_tokens_created")).singleElement()
			.extracting(PrometheusSample::value, InstanceOfAssertFactories.DOUBLE).isCloseTo(1.752052211e9, within(1.0));
	}

	@Test
	void keepsHistogramBucketsSumAndCount() {
		PrometheusSamples parsed = full.parse(Expositions.bytes("vllm-v1.prom"));

		List<PrometheusSample> buckets = parsed.samples("vllm:time_to_first_token_seconds_bucket");
		assertThat(buckets).hasSize(23);
		assertThat(buckets.get(22).labels().get("le")).isEqualTo("+Inf");
		assertThat(buckets).extracting(PrometheusSample::value).isSorted();
		assertThat(parsed.samples("vllm:time_to_first_token_seconds_count")).singleElement()
			.extracting(PrometheusSample::value).isEqualTo(buckets.get(22).value());
		assertThat(parsed.samples("vllm:time_to_first_token_seconds_sum")).hasSize(1);
	}

	@Test
	void readsEveryLineOfEachEnginesExposition() {
		for (String name : List.of("vllm-v1.prom", "vllm-v1-dp2.prom", "vllm-v0.prom", "sglang-tp2.prom",
				"sglang-dp2.prom", "trtllm-serve.prom", "triton-trtllm.prom")) {
			byte[] text = Expositions.bytes(name);
			long sampleLines = new String(text, StandardCharsets.UTF_8).lines()
				.filter((line) -> !line.isBlank() && !line.startsWith("#"))
				.count();

			PrometheusSamples parsed = full.parse(text);

			assertThat(parsed.skippedLines()).as(name).isZero();
			assertThat(parsed.samples()).as(name).hasSize((int) sampleLines);
		}
	}

	@Test
	void skipsMalformedLinesAndKeepsTheRest() {
		PrometheusSamples parsed = full.parse("""
				good_1 1
				bad_value abc
				bad_labels{a="1" 2
				bad_quote{a="1} 2
				{a="1"} 3
				9starts_with_digit 1
				bad_timestamp 1 12.5
				bad_trailing 1 2 3
				no_value
				no_value_after_labels{a="1"}
				bad-dash 1
				bad_label_name{1a="x"} 1
				good_2{a="1"} 2
				�� garbage line
				good_3 3
				""");

		assertThat(parsed.samples()).extracting(PrometheusSample::name).containsExactly("good_1", "good_2", "good_3");
		assertThat(parsed.skippedLines()).isEqualTo(12);
	}

	@Test
	void ignoresTrailingOpenMetricsExemplar() {
		PrometheusSample sample = single("a_bucket{le=\"0.5\"} 3 # {trace_id=\"abc\"} 0.4 1752052211");

		assertThat(sample.value()).isEqualTo(3.0);
	}

	@Test
	void keepsHugeLabelValues() {
		String huge = "x".repeat(1 << 20);

		PrometheusSample sample = single("a{big=\"" + huge + "\",escaped=\"\\\"" + huge + "\"} 1");

		assertThat(sample.labels().get("big")).hasSize(1 << 20);
		assertThat(sample.labels().get("escaped")).hasSize((1 << 20) + 1).startsWith("\"x");
	}

	@Test
	void selectiveParseKeepsOnlySelectedNamesWithTheSameSamplesAsAFullParse() {
		byte[] text = Expositions.bytes("vllm-v1.prom");
		Set<String> names = Set.of("vllm:num_requests_waiting", "vllm:kv_cache_usage_perc", "vllm:cache_config_info",
				"vllm:lora_requests_info");

		PrometheusSamples selected = PrometheusTextParser.selecting(names).parse(text);

		List<PrometheusSample> expected = full.parse(text)
			.samples()
			.stream()
			.filter((sample) -> names.contains(sample.name()))
			.toList();
		assertThat(selected.samples()).isEqualTo(expected).hasSize(6);
		assertThat(selected.types()).isEmpty();
	}

	@Test
	void selectiveParseMatchesWholeNamesOnly() {
		PrometheusSamples parsed = PrometheusTextParser.selecting(Set.of("vllm:num_requests_running"))
			.parse("vllm:num_requests_running_total 1\nvllm:num_requests_runnin 2\nvllm:num_requests_running 3\n");

		assertThat(parsed.samples()).extracting(PrometheusSample::value).containsExactly(3.0);
	}

	@Test
	void selectiveParseCountsOnlyMalformedSelectedLines() {
		PrometheusSamples parsed = PrometheusTextParser.selecting(Set.of("a"))
			.parse("a{x=\"1} 1\nother{ garbage\na 2\n");

		assertThat(parsed.samples()).extracting(PrometheusSample::value).containsExactly(2.0);
		assertThat(parsed.skippedLines()).isEqualTo(1);
	}

	@Test
	void rejectsSelectingAnInvalidName() {
		assertThatIllegalArgumentException().isThrownBy(() -> PrometheusTextParser.selecting(Set.of("bad-name")))
			.withMessageContaining("bad-name");
	}

	@Test
	void parsesASliceOfAByteArray() {
		byte[] text = "junk a 1\nb 2\njunk".getBytes(StandardCharsets.UTF_8);

		PrometheusSamples parsed = full.parse(text, 5, 8);

		assertThat(parsed.samples()).extracting(PrometheusSample::name).containsExactly("a", "b");
	}

	private PrometheusSample single(String line) {
		PrometheusSamples parsed = full.parse(line + "\n");
		assertThat(parsed.skippedLines()).as("skipped lines").isZero();
		assertThat(parsed.samples()).hasSize(1);
		return parsed.samples().get(0);
	}

	private List<Double> values(String... lines) {
		PrometheusSamples parsed = full.parse(String.join("\n", lines));
		assertThat(parsed.skippedLines()).as("skipped lines").isZero();
		return parsed.samples().stream().map(PrometheusSample::value).toList();
	}

	private static final int[] NEAR_NEWLINE = { 0x0A, 0x0B, 0x09, 0x8A, 0x00, 0xFF };

	@Test
	void findsTheFirstNewlineWhereverItIsAndWhateverSurroundsIt() {
		Random random = new Random(7);
		for (int trial = 0; trial < 20_000; trial++) {
			byte[] text = new byte[random.nextInt(40)];
			random.nextBytes(text);
			for (int i = 0; i < text.length; i++) {
				if (text[i] == '\n' || random.nextInt(4) == 0) {
					// bytes near LF and LF itself, where word-at-a-time tricks go wrong
					text[i] = (byte) NEAR_NEWLINE[random.nextInt(NEAR_NEWLINE.length)];
				}
			}
			int from = (text.length == 0) ? 0 : random.nextInt(text.length);
			int end = from + random.nextInt(text.length - from + 1);
			int expected = end;
			for (int i = from; i < end; i++) {
				if (text[i] == '\n') {
					expected = i;
					break;
				}
			}

			assertThat(PrometheusTextParser.indexOfNewline(text, from, end)).isEqualTo(expected);
		}
	}
}
