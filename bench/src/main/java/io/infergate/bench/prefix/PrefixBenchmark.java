package io.infergate.bench.prefix;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointMetrics;
import io.infergate.routing.endpoint.EndpointSnapshot;
import io.infergate.routing.prefix.PrefixHashes;
import io.infergate.routing.prefix.PrefixIndex;
import io.infergate.routing.prefix.PrefixIndexProperties;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.scheduling.Scheduler;
import io.infergate.routing.scheduling.SchedulingCycle;
import io.infergate.routing.scheduling.SchedulingProfile;
import io.infergate.routing.scheduling.SchedulingProfile.WeightedScorer;
import io.infergate.routing.scheduling.SchedulingResult;
import io.infergate.routing.scheduling.filter.ReadyFilter;
import io.infergate.routing.scheduling.filter.SaturationFilter;
import io.infergate.routing.scheduling.picker.MaxScorePicker;
import io.infergate.routing.scheduling.saturation.SaturationDetector;
import io.infergate.routing.scheduling.saturation.SaturationProperties;
import io.infergate.routing.scheduling.scorer.MetricScorer;
import io.infergate.routing.scheduling.scorer.PrefixCacheScorer;

/**
 * One decision of the {@code default} profile's plugins (filters {@code ready}, {@code saturation}; scorers
 * {@code queue} 2, {@code kv-cache} 2, {@code prefix-cache} 3; picker {@code max-score}) over 100 endpoints with a warm
 * prefix index, against a bare XXH3 pass over the same prompt.
 * <ul>
 * <li>{@code decide}: hashing the prompt's blocks, matching them for every candidate, scoring, picking, and the
 * dispatch update of the index (the chosen endpoint refreshes the request's blocks), as {@link Scheduler} runs it.
 * Decision recording off.</li>
 * <li>{@code hashBlocks}: the chained block hashing alone ({@link PrefixIndex#hash}).</li>
 * <li>{@code bareXxh3WholePrompt}: hash4j XXH3 over all the prompt's chars, once, no index.</li>
 * <li>{@code bareXxh3HashedPrefix}: the same over the part the index hashes, the first max-blocks · block-size =
 * 16,384 chars (the whole prompt at 8k; half of it at 32k).</li>
 * </ul>
 * The index has the defaults (64-char blocks, 256 blocks, 31,250 per endpoint). The request is a 4,096-char system
 * prompt plus a question; 3 endpoints hold the whole prompt, 10 more hold the system prompt with other questions, and
 * 2,000 unrelated 8k prompts are spread over all 100 (256,000 more block entries). Endpoint figures are seeded: 0..3
 * waiting, KV 0.05..0.75, fresh snapshots, so no endpoint is filtered out.
 * Times are sampled over three forks, so each percentile pools samples taken at three moments, and the decision and
 * the bare pass are compared by their p50s. Warmup is ten seconds: on a loaded two-core machine the JIT compiler
 * thread gets little CPU, and with three seconds some forks measured {@code decide} before C2 had compiled it (a
 * steady 20–38 µs that then dropped to 6–12 µs).
 * <pre>
 * ./mvnw -B -q -pl bench -am -DskipTests package
 * java -jar bench/target/routing-bench.jar PrefixBenchmark -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 10, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(3)
public class PrefixBenchmark {

	static final long NOW_MILLIS = 1_700_000_000_000L;

	static final int ENDPOINTS = 100;

	private static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";

	private static final Hasher64 XXH3 = Hashing.xxh3_64();

	@Param({ "8192", "32768" })
	public int promptChars;

	private final Scheduler scheduler = new Scheduler();

	private PrefixIndex index;

	private SchedulingProfile profile;

	private List<Endpoint> pool;

	private InferenceRequest request;

	private String prompt;

	private String hashedPrefix;

	private SplittableRandom random;

	@Setup
	public void setUp() {
		SplittableRandom setup = new SplittableRandom(42);
		index = new PrefixIndex(PrefixIndexProperties.defaults());
		SaturationDetector detector = new SaturationDetector(SaturationProperties.defaults());
		profile = new SchedulingProfile("default", List.of(new ReadyFilter(detector), new SaturationFilter(detector)),
				List.of(new WeightedScorer(MetricScorer.predefined(MetricScorer.QUEUE), 2),
						new WeightedScorer(MetricScorer.predefined(MetricScorer.KV_CACHE), 2),
						new WeightedScorer(new PrefixCacheScorer(index), 3)),
				new MaxScorePicker());
		pool = pool(setup);

		String system = text(setup, 4_096);
		prompt = system + text(setup, promptChars - system.length());
		hashedPrefix = prompt.substring(0, Math.min(prompt.length(), 256 * 64));
		request = request(prompt);
		for (int i = 0; i < 3; i++) {
			index.record(index.hash(request), pool.get(10 + 31 * i).id());
		}
		for (int i = 0; i < 10; i++) {
			index.record(index.hash(request(system + text(setup, 4_096))), pool.get(setup.nextInt(ENDPOINTS)).id());
		}
		for (int i = 0; i < 2_000; i++) {
			index.record(index.hash(request(text(setup, 8_192))), pool.get(setup.nextInt(ENDPOINTS)).id());
		}
		random = new SplittableRandom(7);
	}

	@Benchmark
	public SchedulingResult decide() {
		return scheduler.schedule(profile, new SchedulingCycle(request, NOW_MILLIS, random, false), pool);
	}

	@Benchmark
	public PrefixHashes hashBlocks() {
		return index.hash(request);
	}

	@Benchmark
	public long bareXxh3WholePrompt() {
		return XXH3.hashCharsToLong(prompt);
	}

	@Benchmark
	public long bareXxh3HashedPrefix() {
		return XXH3.hashCharsToLong(hashedPrefix);
	}

	private static InferenceRequest request(String prompt) {
		return new InferenceRequest("demo-llama", "bench", MODEL, null, prompt,
				InferenceRequest.estimateTokens(prompt.length()), 256, false, null, 0);
	}

	/**
	 * {@value #ENDPOINTS} endpoints with seeded figures: 0..3 waiting, KV 0.05..0.75, snapshots 10 ms old at
	 * {@link #NOW_MILLIS}.
	 */
	static List<Endpoint> pool(SplittableRandom setup) {
		List<Endpoint> pool = new ArrayList<>(ENDPOINTS);
		for (int i = 0; i < ENDPOINTS; i++) {
			Endpoint endpoint = new Endpoint("bench", URI.create("http://10.0.0." + (i + 1) + ":8000"));
			endpoint.publish(new EndpointSnapshot(new EndpointMetrics(setup.nextInt(4), setup.nextInt(64),
					0.05 + 0.7 * setup.nextDouble(), 16, 29_000, 0, Set.of(), Set.of()), NOW_MILLIS - 10, 0));
			pool.add(endpoint);
		}
		return List.copyOf(pool);
	}

	/** Seeded text: words of 2..9 lowercase letters separated by spaces, exactly {@code length} chars. */
	static String text(SplittableRandom random, int length) {
		StringBuilder text = new StringBuilder(length);
		while (text.length() < length) {
			int word = 2 + random.nextInt(8);
			for (int c = 0; c < word && text.length() < length; c++) {
				text.append((char) ('a' + random.nextInt(26)));
			}
			if (text.length() < length) {
				text.append(' ');
			}
		}
		return text.toString();
	}
}
