package io.infergate.routing.kvevents;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.infergate.routing.InferenceRouter;
import io.infergate.routing.RoutingOutcome;
import io.infergate.routing.autoconfigure.RoutingAutoConfiguration;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.openai.InferenceApi;
import io.infergate.routing.openai.OpenAiRequestParser;
import io.infergate.routing.openai.PromptTokens;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.prefix.EngineBlockIndex;
import io.infergate.routing.prefix.TokenBlockKeys;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.request.Settlement;
import io.infergate.routing.scheduling.autoconfigure.SchedulingAutoConfiguration;
import io.infergate.routing.tokenization.HuggingFaceRequestTokenizer;
import io.infergate.routing.tokenization.PromptTextTokenizerType;
import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.SimulatorConfig;
import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.PerfProfile;
import io.infergate.sim.engine.PromptEncoder;
import io.infergate.simtokenizer.SimulatorPromptTokenizer;
import io.infergate.tokenizers.ModelTokenizer;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * End to end in a Spring context: simulated vLLM pods publish their KV-cache events over ZeroMQ, the routing starter
 * subscribes, a request served by one pod shows up in the engine block index, and a request repeating its prefix is
 * scored towards that pod and routed there by the shipped {@code precise} profile: with the simulator's stand-in
 * tokenization, and with a real tokenizer on both sides.
 */
class PrecisePrefixRoutingTests {

	private static final String SYSTEM = "You are the assistant of the routing team. Answer plainly and cite the policy"
		.repeat(12);

	private final List<SimulatedModelServer> pods = new ArrayList<>();

	private ConfigurableApplicationContext context;

	@AfterEach
	void close() {
		if (context != null) {
			context.close();
		}
		pods.forEach(SimulatedModelServer::close);
	}

	@Test
	void aRepeatedPrefixIsRoutedToThePodWhoseEngineReportsItCached() throws Exception {
		start(PromptEncoder.standIn(), "--infergate.pools.llama.tokenizer.type=simulator");

		assertRoutedToThePodThatServedThePrefix((question) -> {
			String prompt = "\u001esystem\u001f" + SYSTEM + "\u001euser\u001f" + question;
			int[] ids = SimulatorPromptTokenizer.encode(prompt);
			return new PromptTokens(ids, ids.length);
		});
	}

	/**
	 * The same with the model's real tokenizer on both sides: the pods tokenize with Qwen3's tokenizer and chat
	 * template and publish those token ids, and the gateway tokenizes the request's body with the same files.
	 */
	@Test
	void aRepeatedPrefixIsRoutedByRealTokenIds() throws Exception {
		Path qwen3 = Path.of(System.getProperty("infergate.test.tokenizers"), "tokenizer-qwen3", "models");
		start(PromptEncoder.load(qwen3, null), "--infergate.pools.llama.tokenizer.path=" + qwen3);
		HuggingFaceRequestTokenizer tokenizer = new HuggingFaceRequestTokenizer(ModelTokenizer.load(qwen3, null));

		assertRoutedToThePodThatServedThePrefix((question) -> tokenizer.tokenize(
				new OpenAiRequestParser().parse(chatBody(SYSTEM, question).getBytes(StandardCharsets.UTF_8),
						InferenceApi.CHAT_COMPLETIONS)));
		tokenizer.close();
	}

	/**
	 * {@code cache_salt} as vLLM keeps it: the pod stores the salted prompt's blocks under a salted first block and
	 * names the salt in the event's {@code extra_keys}; the index keys that chain under the salt, so the same prompt
	 * with the same salt matches every block on that pod, and without the salt (or with another) none.
	 */
	@Test
	void aSaltedPrefixMatchesOnlyRequestsWithTheSameSalt() throws Exception {
		Path qwen3 = Path.of(System.getProperty("infergate.test.tokenizers"), "tokenizer-qwen3", "models");
		start(PromptEncoder.load(qwen3, null), "--infergate.pools.llama.tokenizer.path=" + qwen3);
		HuggingFaceRequestTokenizer tokenizer = new HuggingFaceRequestTokenizer(ModelTokenizer.load(qwen3, null));
		EndpointRegistry registry = awaitPodsReady();
		SimulatedModelServer cached = pods.get(2);
		EndpointId cachedId = new EndpointId("127.0.0.1", cached.port());
		String salted = saltedChatBody(SYSTEM, "What is the first rule?", "tenant-a");
		assertThat(chat(cached, salted).statusCode()).isEqualTo(200);
		EngineBlockIndex index = awaitIndexed(cached,
				saltedChatBody("An unrelated prompt. ".repeat(20), "nudge", "tenant-z"));
		int[] ids = tokenizer.tokenize(new OpenAiRequestParser().parse(salted.getBytes(StandardCharsets.UTF_8),
				InferenceApi.CHAT_COMPLETIONS)).ids();
		int blockSize = index.blockSize(cachedId);
		long[] keys = new long[ids.length / blockSize];
		List<Endpoint> candidates = registry.pool("llama").endpoints();
		int pod = candidates.indexOf(candidates.stream().filter((e) -> e.id().equals(cachedId)).findFirst().get());

		int blocks = TokenBlockKeys.keys(ids, ids.length, blockSize, null, "tenant-a", keys);
		assertThat(index.matchedBlocks(keys, blocks, candidates)[pod]).isEqualTo(blocks).isPositive();
		TokenBlockKeys.keys(ids, ids.length, blockSize, null, null, keys);
		assertThat(index.matchedBlocks(keys, blocks, candidates)[pod]).isZero();
		TokenBlockKeys.keys(ids, ids.length, blockSize, null, "tenant-b", keys);
		assertThat(index.matchedBlocks(keys, blocks, candidates)[pod]).isZero();

		PromptTokens tokens = tokenizer.tokenize(new OpenAiRequestParser().parse(
				saltedChatBody(SYSTEM, "And the second one?", "tenant-a").getBytes(StandardCharsets.UTF_8),
				InferenceApi.CHAT_COMPLETIONS));
		RoutingOutcome outcome = context.getBean(InferenceRouter.class).route(new InferenceRequest("llama", "llama",
				"llama", null, "", tokens.count(), 16, false, null, 0, new Settlement(), tokens.ids(), true,
				"tenant-a"), List.of());
		assertThat(outcome.chosen().id()).isEqualTo(cachedId);
		tokenizer.close();
	}

	private void start(PromptEncoder encoder, String tokenizerProperty) {
		List<String> args = new ArrayList<>(List.of("--infergate.pools.llama.profile=precise", tokenizerProperty,
				"--infergate.pools.llama.kv-events.enabled=true", "--infergate.pools.llama.scrape.interval=20ms",
				"--infergate.scheduling.saturation.staleness-threshold=5s"));
		StringBuilder endpoints = new StringBuilder();
		for (int i = 0; i < 3; i++) {
			SimulatedModelServer pod = new SimulatedModelServer(SimulatorConfig.builder("llama")
				.engine(EngineConfig.builder().perfProfile(PerfProfile.ZERO).build())
				.kvEventsPort(0)
				.kvEventsReplayPort(0)
				.promptEncoder(encoder)
				.build()).start();
			pods.add(pod);
			endpoints.append((i > 0) ? "," : "").append(pod.baseUrl());
			String id = "127.0.0.1:" + pod.port();
			args.add("--infergate.pools.llama.kv-events.addresses.[" + id + "].publisher=tcp://127.0.0.1:"
					+ pod.kvEventsPort());
			args.add("--infergate.pools.llama.kv-events.addresses.[" + id + "].replay=tcp://127.0.0.1:"
					+ pod.kvEventsReplayPort());
		}
		args.add("--infergate.pools.llama.endpoints=" + endpoints);
		context = new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.run(args.toArray(String[]::new));
	}

	private void assertRoutedToThePodThatServedThePrefix(PromptOf promptOf) throws Exception {
		awaitPodsReady();
		SimulatedModelServer cached = pods.get(1);
		EndpointId cachedId = new EndpointId("127.0.0.1", cached.port());

		assertThat(chat(cached, chatBody(SYSTEM, "What is the first rule?")).statusCode()).isEqualTo(200);

		awaitIndexed(cached, chatBody("An unrelated prompt. ".repeat(20), "nudge"));
		PromptTokens tokens = promptOf.tokens("And the second one?");
		InferenceRouter router = context.getBean(InferenceRouter.class);
		RoutingOutcome outcome = router.route(new InferenceRequest("llama", "llama", "llama", null, "",
				tokens.count(), 16, false, null, 0, new Settlement(), tokens.ids(), true), List.of());

		assertThat(outcome.hasEndpoint()).isTrue();
		assertThat(outcome.chosen().id()).isEqualTo(cachedId);
		assertThat(context.getBean(KvEventSubscriptions.class).status()).hasSize(3)
			.allSatisfy((stream) -> assertThat(stream.lostHistories()).isZero());
	}

	private EndpointRegistry awaitPodsReady() {
		EndpointRegistry registry = context.getBean(EndpointRegistry.class);
		await().atMost(Duration.ofSeconds(30))
			.until(() -> registry.pool("llama").endpoints().size() == 3
					&& registry.pool("llama").endpoints().stream().allMatch(Endpoint::isReady));
		return registry;
	}

	/**
	 * Waits until the index holds blocks of {@code pod}, sending it {@code nudge} meanwhile: a subscription reaches
	 * the publisher asynchronously, so the first batch may be missed; any later batch then reveals the gap and the
	 * subscriber replays from 0.
	 */
	private EngineBlockIndex awaitIndexed(SimulatedModelServer pod, String nudge) {
		EngineBlockIndex index = context.getBean(EngineBlockIndex.class);
		EndpointId id = new EndpointId("127.0.0.1", pod.port());
		await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> {
			if (index.blocks(id) > 0) {
				return true;
			}
			chat(pod, nudge);
			return false;
		});
		return index;
	}

	/** The token ids the gateway gives the request asking {@code question} after the shared system prompt. */
	@FunctionalInterface
	private interface PromptOf {

		PromptTokens tokens(String question) throws Exception;
	}

	private static HttpResponse<String> chat(SimulatedModelServer pod, String body) throws Exception {
		return HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create(pod.baseUrl() + "/v1/chat/completions"))
				.header("content-type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(body))
				.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static String chatBody(String system, String question) {
		return "{\"model\":\"llama\",\"max_tokens\":1,\"messages\":[{\"role\":\"system\",\"content\":\"" + system
				+ "\"},{\"role\":\"user\",\"content\":\"" + question + "\"}]}";
	}

	private static String saltedChatBody(String system, String question, String salt) {
		return chatBody(system, question).replace("{\"model\"", "{\"cache_salt\":\"" + salt + "\",\"model\"");
	}

	@SpringBootConfiguration
	@ImportAutoConfiguration({ SchedulingAutoConfiguration.class, RoutingAutoConfiguration.class })
	static class Application {

		/** {@code tokenizer.type: simulator}, as the gateway application registers it. */
		@Bean
		PromptTextTokenizerType simulatorTokenizerType() {
			return new PromptTextTokenizerType(SimulatorPromptTokenizer.TYPE, SimulatorPromptTokenizer::encode);
		}
	}
}
