package io.infergate.bench.prefix;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

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

import io.infergate.kvevents.BlockStored;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.prefix.EngineBlockIndex;
import io.infergate.routing.prefix.EngineBlockIndexProperties;
import io.infergate.routing.prefix.PrefixIndex;
import io.infergate.routing.prefix.PrefixIndexProperties;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.scheduling.EndpointScorer;
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
import io.infergate.routing.scheduling.scorer.PrecisePrefixScorer;
import io.infergate.routing.scheduling.scorer.PrefixCacheScorer;
import io.infergate.routing.prefix.TokenBlockKeys;
import io.infergate.routing.request.Settlement;
import io.infergate.simtokenizer.SimulatorPromptTokenizer;

/**
 * The {@code precise} profile's decision against {@code default}'s, side by side on the same 100 endpoints and request:
 * what matching a prompt to engine-reported blocks costs per decision, keying the prompt's token blocks included.
 * <ul>
 * <li>{@code decidePrecise}: filters {@code ready}, {@code saturation}; scorers {@code queue} 2, {@code kv-cache} 2,
 * {@code precise-prefix} 3; {@code max-score}. The request carries its token ids (the simulator's chat template and
 * tokenizer, computed once per request before scheduling, as the gateway does); the scorer keys its first 256
 * blocks of 16 tokens ({@link TokenBlockKeys}) and matches them in the {@link EngineBlockIndex}.</li>
 * <li>{@code decideDefault}: the same with {@code prefix-cache} 3 over the approximate {@link PrefixIndex}, whose
 * dispatch update is part of the decision.</li>
 * <li>{@code keyBlocks}: the precise scorer's per-request work before matching, alone.</li>
 * </ul>
 * The request is a chat prompt in the gateway's form: a 4,096-char system message and a user message, together
 * {@code promptChars}. Both indexes hold the same picture: 3 endpoints hold the whole prompt, 10 more the system prompt
 * with other questions, and 2,000 unrelated 8k prompts are spread over all 100. Endpoint figures as in
 * {@link PrefixBenchmark}.
 * <pre>
 * ./mvnw -B -q -pl bench -am -DskipTests package
 * java -jar bench/target/routing-bench.jar PrecisePrefixBenchmark -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 10, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(3)
public class PrecisePrefixBenchmark {

	private static final long NOW_MILLIS = PrefixBenchmark.NOW_MILLIS;

	private static final int ENDPOINTS = PrefixBenchmark.ENDPOINTS;

	private static final int BLOCK_SIZE = 16;

	private static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";

	@Param({ "8192", "32768" })
	public int promptChars;

	private final Scheduler scheduler = new Scheduler();

	private final long[] keys = new long[256];

	private long engineHashes;

	private SchedulingProfile precise;

	private SchedulingProfile approximate;

	private List<Endpoint> pool;

	private InferenceRequest request;

	private SplittableRandom random;

	@Setup
	public void setUp() {
		SplittableRandom setup = new SplittableRandom(42);
		EngineBlockIndex engineBlocks = new EngineBlockIndex(EngineBlockIndexProperties.defaults());
		PrefixIndex prefixIndex = new PrefixIndex(PrefixIndexProperties.defaults());
		precise = preciseProfile(engineBlocks);
		approximate = approximateProfile(prefixIndex);
		pool = PrefixBenchmark.pool(setup);

		String system = PrefixBenchmark.text(setup, 4_096);
		request = chat(system, PrefixBenchmark.text(setup, promptChars - system.length() - 14));
		for (int i = 0; i < 3; i++) {
			store(engineBlocks, prefixIndex, request, pool.get(10 + 31 * i));
		}
		for (int i = 0; i < 10; i++) {
			store(engineBlocks, prefixIndex, chat(system, PrefixBenchmark.text(setup, 4_096)),
					pool.get(setup.nextInt(ENDPOINTS)));
		}
		for (int i = 0; i < 2_000; i++) {
			String unrelated = PrefixBenchmark.text(setup, 4_096);
			store(engineBlocks, prefixIndex, chat(unrelated, PrefixBenchmark.text(setup, 4_096)),
					pool.get(setup.nextInt(ENDPOINTS)));
		}
		random = new SplittableRandom(7);
	}

	/** {@code precise}'s filters and weights with the given engine block index. */
	static SchedulingProfile preciseProfile(EngineBlockIndex engineBlocks) {
		return profile("precise", new PrecisePrefixScorer(engineBlocks));
	}

	/** {@code llm-d}'s filters and weights (the approximate prefix index), named {@code default} here. */
	static SchedulingProfile approximateProfile(PrefixIndex prefixIndex) {
		return profile("default", new PrefixCacheScorer(prefixIndex));
	}

	private static SchedulingProfile profile(String name, EndpointScorer prefixScorer) {
		SaturationDetector detector = new SaturationDetector(SaturationProperties.defaults());
		return new SchedulingProfile(name, List.of(new ReadyFilter(detector), new SaturationFilter(detector)),
				List.of(new WeightedScorer(MetricScorer.predefined(MetricScorer.QUEUE), 2),
						new WeightedScorer(MetricScorer.predefined(MetricScorer.KV_CACHE), 2),
						new WeightedScorer(prefixScorer, 3)),
				new MaxScorePicker());
	}

	/** Records the prompt on the endpoint in both indexes: as its engine would report it, and as a dispatch. */
	private void store(EngineBlockIndex engineBlocks, PrefixIndex prefixIndex, InferenceRequest prompt,
			Endpoint endpoint) {
		int[] tokens = prompt.promptTokenIds();
		long[] hashes = new long[tokens.length / BLOCK_SIZE];
		for (int i = 0; i < hashes.length; i++) {
			hashes[i] = ++engineHashes;
		}
		engineBlocks.apply(endpoint.id(), new BlockStored(hashes, null, Arrays.copyOf(tokens, hashes.length * BLOCK_SIZE),
				BLOCK_SIZE, null, BlockStored.MEDIUM_GPU, null, null));
		prefixIndex.record(prefixIndex.hash(prompt), endpoint.id());
	}

	@Benchmark
	public SchedulingResult decidePrecise() {
		return scheduler.schedule(precise, new SchedulingCycle(request, NOW_MILLIS, random, false), pool);
	}

	@Benchmark
	public SchedulingResult decideDefault() {
		return scheduler.schedule(approximate, new SchedulingCycle(request, NOW_MILLIS, random, false), pool);
	}

	@Benchmark
	public int keyBlocks() {
		int[] tokens = request.promptTokenIds();
		return TokenBlockKeys.keys(tokens, tokens.length, BLOCK_SIZE, null, keys);
	}

	/**
	 * A system and a user message in the gateway's prompt form (14 characters of markers and roles), with the token
	 * ids the simulator's tokenization gives it.
	 */
	private static InferenceRequest chat(String system, String question) {
		String prompt = "\u001esystem\u001f" + system + "\u001euser\u001f" + question;
		int[] tokens = new int[SimulatorPromptTokenizer.maxTokens(prompt)];
		tokens = Arrays.copyOf(tokens, new SimulatorPromptTokenizer().tokenize(prompt, tokens));
		return new InferenceRequest("demo-llama", "bench", MODEL, null, prompt, tokens.length, 256, false, null, 0,
				new Settlement(), tokens, true);
	}
}
