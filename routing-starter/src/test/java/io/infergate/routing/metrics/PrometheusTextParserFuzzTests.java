package io.infergate.routing.metrics;

import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Properties of the parser over generated input, each with a fixed seed so a failure reproduces: it never throws,
 * it reads back what a well-formed writer wrote, truncation only loses the cut line, and its time grows linearly.
 */
class PrometheusTextParserFuzzTests {

	private static final String[] FIXTURES = { "vllm-v1.prom", "vllm-v0.prom", "sglang-tp2.prom", "sglang-dp2.prom",
			"trtllm-serve.prom", "triton-trtllm.prom" };

	/** Bytes that steer random text into the parser's branches. */
	private static final byte[] ALPHABET = "{}\"\\=,# \t\r\n\n\n.+-eE0123456789abcnNaIifvlm_:le\u00ff\u0080"
		.getBytes(StandardCharsets.ISO_8859_1);

	private final PrometheusTextParser full = PrometheusTextParser.full();

	private final PrometheusTextParser selective = EngineMapping.forEngine(EngineMapping.VLLM).parser();

	@Test
	void neverThrowsOnRandomBytes() {
		SplittableRandom random = new SplittableRandom(20250709L);
		for (int round = 0; round < 5_000; round++) {
			byte[] text = new byte[random.nextInt(400)];
			boolean steered = random.nextBoolean();
			for (int i = 0; i < text.length; i++) {
				text[i] = steered ? ALPHABET[random.nextInt(ALPHABET.length)] : (byte) random.nextInt(256);
			}
			assertParsesQuietly(text);
		}
	}

	@Test
	void neverThrowsOnMutatedExpositions() {
		SplittableRandom random = new SplittableRandom(1752052211L);
		List<byte[]> fixtures = Arrays.stream(FIXTURES).map(Expositions::bytes).toList();
		for (int round = 0; round < 1_000; round++) {
			byte[] text = fixtures.get(random.nextInt(fixtures.size()));
			int mutations = 1 + random.nextInt(8);
			for (int m = 0; m < mutations; m++) {
				text = mutate(text, random);
			}
			assertParsesQuietly(text);
		}
	}

	@Test
	void truncatedInputLosesAtMostTheCutLine() {
		SplittableRandom random = new SplittableRandom(42L);
		for (String fixture : FIXTURES) {
			byte[] text = Expositions.bytes(fixture);
			List<PrometheusSample> whole = full.parse(text).samples();
			for (int round = 0; round < 200; round++) {
				int length = random.nextInt(text.length + 1);

				List<PrometheusSample> truncated = full.parse(text, 0, length).samples();

				// Every sample before the last is a whole line and must be exactly what the whole text holds.
				int kept = Math.max(0, truncated.size() - 1);
				assertThat(truncated.subList(0, kept)).as("%s cut at %d", fixture, length)
					.isEqualTo(whole.subList(0, kept));
			}
		}
	}

	@Test
	void readsBackWhatAWellFormedWriterWrote() {
		SplittableRandom random = new SplittableRandom(7L);
		for (int round = 0; round < 500; round++) {
			List<PrometheusSample> written = new ArrayList<>();
			StringBuilder text = new StringBuilder();
			String newline = random.nextBoolean() ? "\n" : "\r\n";
			int count = 1 + random.nextInt(20);
			for (int s = 0; s < count; s++) {
				PrometheusSample sample = randomSample(random);
				written.add(sample);
				if (random.nextInt(4) == 0) {
					text.append("# HELP ").append(sample.name()).append(" help \\n text").append(newline);
				}
				if (random.nextInt(8) == 0) {
					text.append(newline);
				}
				write(sample, text, random);
				text.append(newline);
			}

			PrometheusSamples parsed = full.parse(text.toString());

			assertThat(parsed.skippedLines()).as(text::toString).isZero();
			assertThat(parsed.samples()).as(text::toString).isEqualTo(written);
		}
	}

	/**
	 * Times are this thread's CPU time, the minimum of interleaved runs after a warm-up, and the bound allows 8x
	 * per byte between inputs 64x apart in size; a quadratic pass would show 64x.
	 */
	@Test
	void parseTimeGrowsLinearlyWithInputSize() {
		List<Function<Integer, byte[]>> shapes = List.of(
				(size) -> repeat("vllm:e2e_request_latency_seconds_bucket{engine=\"0\",le=\"0.5\",model_name=\"m\"} 4725.0\n", size),
				(size) -> repeat("vllm:num_requests_waiting{engine=\"0\"} 3\n", size),
				(size) -> concat("vllm:num_requests_waiting{model_name=\"", repeat("\\\"\\\\\\n", size), "\"} 1\n"),
				(size) -> concat("vllm:num_requests_waiting{", repeat("a=\"x\",", size), "} 1\n"),
				(size) -> concat("vllm:num_requests_waiting ", repeat("1", size), "\n"),
				(size) -> repeat("{", size),
				(size) -> repeat("\n", size));
		for (Function<Integer, byte[]> shape : shapes) {
			byte[] small = shape.apply(16 * 1024);
			byte[] large = shape.apply(1024 * 1024);
			for (PrometheusTextParser parser : List.of(full, selective)) {
				long[] bestNanos = { Long.MAX_VALUE, Long.MAX_VALUE };
				for (int run = 0; run < 12; run++) {
					long smallNanos = nanos(parser, small);
					long largeNanos = nanos(parser, large);
					if (run >= 3) {
						bestNanos[0] = Math.min(bestNanos[0], smallNanos);
						bestNanos[1] = Math.min(bestNanos[1], largeNanos);
					}
				}
				double smallNanosPerByte = (double) bestNanos[0] / small.length;
				double largeNanosPerByte = (double) bestNanos[1] / large.length;

				assertThat(largeNanosPerByte).as("ns/byte on %s... (%s parse)", new String(small, 0, 30,
						StandardCharsets.UTF_8), (parser == full) ? "full" : "selective")
					.isLessThan(8 * Math.max(smallNanosPerByte, 0.5));
			}
		}
	}

	private void assertParsesQuietly(byte[] text) {
		assertThatNoException().as(() -> new String(text, StandardCharsets.ISO_8859_1)).isThrownBy(() -> {
			PrometheusSamples parsed = full.parse(text);
			selective.parse(text);
			assertThat(parsed.samples().size() + parsed.skippedLines()).isLessThanOrEqualTo(text.length);
		});
	}

	private static byte[] mutate(byte[] text, SplittableRandom random) {
		if (text.length == 0) {
			return new byte[] { ALPHABET[random.nextInt(ALPHABET.length)] };
		}
		int at = random.nextInt(text.length);
		int span = Math.min(text.length - at, 1 + random.nextInt(64));
		ByteArrayOutputStream out = new ByteArrayOutputStream(text.length + 64);
		switch (random.nextInt(5)) {
			case 0 -> { // overwrite one byte
				byte[] copy = text.clone();
				copy[at] = (random.nextBoolean()) ? ALPHABET[random.nextInt(ALPHABET.length)] : (byte) random.nextInt(256);
				return copy;
			}
			case 1 -> { // delete a span
				out.write(text, 0, at);
				out.write(text, at + span, text.length - at - span);
			}
			case 2 -> { // duplicate a span
				out.write(text, 0, at + span);
				out.write(text, at, text.length - at);
			}
			case 3 -> { // insert parser-relevant bytes
				out.write(text, 0, at);
				for (int i = 0; i < span; i++) {
					out.write(ALPHABET[random.nextInt(ALPHABET.length)]);
				}
				out.write(text, at, text.length - at);
			}
			default -> { // truncate
				return Arrays.copyOf(text, at);
			}
		}
		return out.toByteArray();
	}

	private static PrometheusSample randomSample(SplittableRandom random) {
		String name = randomName(random, true);
		int labelCount = random.nextInt(5);
		String[] labels = new String[2 * labelCount];
		Set<String> used = new HashSet<>();
		for (int i = 0; i < labelCount; i++) {
			String labelName;
			do {
				labelName = randomName(random, false);
			}
			while (!used.add(labelName));
			labels[2 * i] = labelName;
			labels[2 * i + 1] = randomValue(random);
		}
		double value = switch (random.nextInt(8)) {
			case 0 -> Double.NaN;
			case 1 -> (random.nextBoolean()) ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
			case 2 -> random.nextInt(1000);
			case 3 -> Double.longBitsToDouble(random.nextLong());
			default -> (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(-30, 30));
		};
		if (Double.isNaN(value)) {
			value = Double.NaN; // one NaN bit pattern, so records compare equal
		}
		long timestamp = (random.nextInt(3) == 0) ? random.nextLong(-1L << 50, 1L << 50) : PrometheusSample.NO_TIMESTAMP;
		return new PrometheusSample(name, Labels.of(labels), value, timestamp);
	}

	private static String randomName(SplittableRandom random, boolean metric) {
		String first = metric ? "abcxyzABC_:" : "abcxyzABC_";
		String rest = metric ? "abcxyzABC_:0129" : "abcxyzABC_0129";
		StringBuilder name = new StringBuilder().append(first.charAt(random.nextInt(first.length())));
		int length = random.nextInt(30);
		for (int i = 0; i < length; i++) {
			name.append(rest.charAt(random.nextInt(rest.length())));
		}
		return name.toString();
	}

	private static String randomValue(SplittableRandom random) {
		String pieces = "ab\"\\\n ,}{=#\u00e9\u6a21";
		StringBuilder value = new StringBuilder();
		int length = random.nextInt(12);
		for (int i = 0; i < length; i++) {
			value.append((random.nextInt(4) == 0) ? Character.toString(random.nextInt(0x20, 0x2fff))
					: String.valueOf(pieces.charAt(random.nextInt(pieces.length()))));
		}
		return value.toString();
	}

	private static void write(PrometheusSample sample, StringBuilder text, SplittableRandom random) {
		text.append(sample.name());
		if (sample.labels().size() > 0 || random.nextBoolean()) {
			text.append(sample.labels());
		}
		text.append(random.nextBoolean() ? " " : " \t ");
		double value = sample.value();
		if (Double.isNaN(value)) {
			text.append("NaN");
		}
		else if (Double.isInfinite(value)) {
			text.append((value > 0) ? "+Inf" : "-Inf");
		}
		else {
			text.append(random.nextBoolean() ? Double.toString(value) : String.format(Locale.ROOT, "%.17e", value));
		}
		if (sample.hasTimestamp()) {
			text.append(' ').append(sample.timestampMillis());
		}
	}

	/** CPU time of this thread where the JVM measures it: neither other processes nor GC threads count. */
	private static long nanos(PrometheusTextParser parser, byte[] text) {
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		boolean cpuTime = threads.isCurrentThreadCpuTimeSupported();
		long start = cpuTime ? threads.getCurrentThreadCpuTime() : System.nanoTime();
		parser.parse(text);
		return (cpuTime ? threads.getCurrentThreadCpuTime() : System.nanoTime()) - start;
	}

	private static byte[] repeat(String unit, int size) {
		byte[] pattern = unit.getBytes(StandardCharsets.UTF_8);
		byte[] text = new byte[size];
		for (int i = 0; i < size; i++) {
			text[i] = pattern[i % pattern.length];
		}
		return text;
	}

	private static byte[] concat(String head, byte[] middle, String tail) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		out.writeBytes(head.getBytes(StandardCharsets.UTF_8));
		out.writeBytes(middle);
		out.writeBytes(tail.getBytes(StandardCharsets.UTF_8));
		return out.toByteArray();
	}
}
