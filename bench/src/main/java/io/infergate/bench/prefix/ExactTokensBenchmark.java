package io.infergate.bench.prefix;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.infergate.kvevents.BlockStored;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.openai.InferenceApi;
import io.infergate.routing.openai.InvalidRequestException;
import io.infergate.routing.openai.PromptSource;
import io.infergate.routing.openai.PromptTokens;
import io.infergate.routing.prefix.EngineBlockIndex;
import io.infergate.routing.prefix.EngineBlockIndexProperties;
import io.infergate.routing.prefix.PrefixIndex;
import io.infergate.routing.prefix.PrefixIndexProperties;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.request.Settlement;
import io.infergate.routing.scheduling.Scheduler;
import io.infergate.routing.scheduling.SchedulingCycle;
import io.infergate.routing.scheduling.SchedulingProfile;
import io.infergate.routing.scheduling.SchedulingResult;
import io.infergate.tokenizers.ModelTokenizer;

/**
 * What exact tokens cost, against the tokenizer library's own time, for chat prompts of about 1k, 8k and 32k tokens
 * of English-like text, with a real Hugging Face tokenizer (its directory in {@code -p tokenizer=DIR}):
 * <ul>
 * <li>{@code library}: the Rust {@code tokenizers} library through DJL encoding the rendered prompt, nothing
 * else;</li>
 * <li>{@code modelTokenizer}: the same through {@link ModelTokenizer} (ids copied to {@code int[]}, the lone
 * surrogate check);</li>
 * <li>{@code exactTokens}: what the gateway does per request: the body parsed, the messages rendered through the
 * chat template, the result tokenized ({@link PromptSource});</li>
 * <li>{@code decideExact}: that, then the {@code precise} profile's decision over 100 endpoints (3 hold the prompt
 * in the engine block index): the whole decision with exact tokens;</li>
 * <li>{@code decideEstimated}: the {@code default} profile's decision over the same endpoints without a tokenizer:
 * its prefix index hashes the prompt's characters;</li>
 * <li>{@code renderShortChat}: the chat template alone on gateway-compare.sh's short chat.</li>
 * </ul>
 * <pre>
 * java -jar bench/target/routing-bench.jar ExactTokensBenchmark -p tokenizer=DIR [-p promptTokens=0 -p cache=true]
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ExactTokensBenchmark {

	private static final String[] WORDS = { "the", "gateway", "routes", "each", "request", "to", "a", "replica",
			"where", "its", "prompt", "is", "cheapest", "to", "serve", "and", "weighs", "cache", "affinity", "queue",
			"depth", "pressure", "adapters", "of", "model", "servers", "with", "tokens", "blocks", "prefix", "engine",
			"latency", "throughput", "in", "on", "for", "that", "this", "when", "which" };

	private static final int BLOCK_SIZE = 16;

	private static final String SHORT_SYSTEM = "You are a helpful assistant.";

	private static final String SHORT_USER = "Name three prime numbers.";

	private List<Map<String, String>> messagesOnly;

	@Param("")
	public String tokenizer;

	/**
	 * Whether the tokenizer caches encoded stretches of chats. Every iteration sends the same body, so with the cache
	 * {@code exactTokens} and {@code decideExact} find every stretch in it: what a repeated system prompt or an earlier
	 * turn costs. Without it they encode everything, as for text never seen before.
	 */
	@Param({ "false", "true" })
	public boolean cache;

	/** About this many tokens in one user message; 0: gateway-compare.sh's short chat (a system and a user message). */
	@Param({ "1024", "8192", "32768" })
	public int promptTokens;

	private HuggingFaceTokenizer library;

	private ModelTokenizer model;

	private String rendered;

	private byte[] body;

	private String promptText;

	private final Scheduler scheduler = new Scheduler();

	private SchedulingProfile precise;

	private SchedulingProfile approximate;

	private List<Endpoint> pool;

	private SplittableRandom random;

	@Setup
	public void setUp() throws IOException, InvalidRequestException {
		if (tokenizer.isEmpty()) {
			throw new IllegalArgumentException("give the tokenizer's directory: -p tokenizer=DIR");
		}
		Path directory = Path.of(tokenizer);
		Path file = Files.isDirectory(directory) ? directory.resolve(ModelTokenizer.TOKENIZER_FILE) : directory;
		library = HuggingFaceTokenizer.newInstance(file, Map.of("addSpecialTokens", "false", "truncation", "false",
				"padding", "false"));
		model = ModelTokenizer.load(directory, null, cache ? ModelTokenizer.DEFAULT_CACHE_BYTES : 0);
		if (promptTokens == 0) {
			List<Map<String, String>> messages = List.of(Map.of("role", "system", "content", SHORT_SYSTEM),
					Map.of("role", "user", "content", SHORT_USER));
			rendered = model.renderChat(messages, null, Map.of(), true);
			body = ("{\"model\":\"m\",\"max_tokens\":8,\"messages\":[{\"role\":\"system\",\"content\":\""
					+ SHORT_SYSTEM + "\"},{\"role\":\"user\",\"content\":\"" + SHORT_USER + "\"}]}")
				.getBytes(StandardCharsets.UTF_8);
			promptText = "\u001esystem\u001f" + SHORT_SYSTEM + "\u001euser\u001f" + SHORT_USER;
		}
		else {
			SplittableRandom words = new SplittableRandom(42);
			StringBuilder text = new StringBuilder();
			while (model.encode(text.toString(), false).length < promptTokens) {
				for (int i = 0; i < 256; i++) {
					text.append(WORDS[words.nextInt(WORDS.length)]).append((i % 17 == 16) ? ". " : " ");
				}
			}
			String content = text.toString();
			List<Map<String, String>> messages = List.of(Map.of("role", "user", "content", content));
			rendered = model.renderChat(messages, null, Map.of(), true);
			body = ("{\"model\":\"m\",\"max_tokens\":256,\"messages\":[{\"role\":\"user\",\"content\":\""
					+ content + "\"}]}").getBytes(StandardCharsets.UTF_8);
			promptText = "\u001euser\u001f" + content;
		}
		messagesOnly = List.of(Map.of("role", "system", "content", SHORT_SYSTEM),
				Map.of("role", "user", "content", SHORT_USER));

		SplittableRandom setup = new SplittableRandom(42);
		EngineBlockIndex engineBlocks = new EngineBlockIndex(EngineBlockIndexProperties.defaults());
		PrefixIndex prefixIndex = new PrefixIndex(PrefixIndexProperties.defaults());
		precise = PrecisePrefixBenchmark.preciseProfile(engineBlocks);
		approximate = PrecisePrefixBenchmark.approximateProfile(prefixIndex);
		pool = PrefixBenchmark.pool(setup);
		int[] ids = new PromptSource(body, InferenceApi.CHAT_COMPLETIONS).exactTokens(model).ids();
		long[] hashes = new long[ids.length / BLOCK_SIZE];
		for (int i = 0; i < hashes.length; i++) {
			hashes[i] = 1000 + i;
		}
		for (int i = 0; i < 3; i++) {
			Endpoint holder = pool.get(10 + 31 * i);
			engineBlocks.apply(holder.id(), new BlockStored(hashes, null,
					Arrays.copyOf(ids, hashes.length * BLOCK_SIZE), BLOCK_SIZE, null, BlockStored.MEDIUM_GPU, null,
					null));
			prefixIndex.record(prefixIndex.hash(estimated()), holder.id());
		}
		random = new SplittableRandom(7);
	}

	@TearDown
	public void tearDown() {
		library.close();
		model.close();
	}

	@Benchmark
	public long[] library() {
		return library.encode(rendered, false, false).getIds();
	}

	@Benchmark
	public int[] modelTokenizer() {
		return model.encode(rendered, false);
	}

	/** The chat template alone, on the short chat's messages (the same whatever {@code promptTokens}). */
	@Benchmark
	public String renderShortChat() {
		return model.renderChat(messagesOnly, null, Map.of(), true);
	}

	@Benchmark
	public PromptTokens exactTokens() throws InvalidRequestException {
		return new PromptSource(body, InferenceApi.CHAT_COMPLETIONS).exactTokens(model);
	}

	@Benchmark
	public SchedulingResult decideExact() throws InvalidRequestException {
		PromptTokens tokens = new PromptSource(body, InferenceApi.CHAT_COMPLETIONS).exactTokens(model);
		InferenceRequest request = new InferenceRequest("m", "bench", "m", null, promptText, tokens.count(), 256, false,
				null, 0, new Settlement(), tokens.ids(), true);
		return scheduler.schedule(precise, new SchedulingCycle(request, PrefixBenchmark.NOW_MILLIS, random, false),
				pool);
	}

	@Benchmark
	public SchedulingResult decideEstimated() {
		return scheduler.schedule(approximate,
				new SchedulingCycle(estimated(), PrefixBenchmark.NOW_MILLIS, random, false), pool);
	}

	private InferenceRequest estimated() {
		return new InferenceRequest("m", "bench", "m", null, promptText,
				InferenceRequest.estimateTokens(promptText.length()), 256, false, null, 0);
	}
}
