package io.infergate.gateway;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.gateway.support.TestTokenizers;
import io.infergate.routing.auth.ApiKeyHash;
import io.infergate.routing.tokenization.TokenizerCacheMeters;
import io.infergate.sim.SimulatorConfig;
import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.PerfProfile;
import io.infergate.sim.engine.PromptEncoder;
import io.infergate.tokenizers.ModelTokenizer;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With the model's tokenizer configured, the gateway counts a chat request's prompt as the engine does, end to end
 * against simulated pods started with the same real tokenizer (Qwen3's). The prompt is chosen so that the estimate
 * (characters / 4) is well above the real count: each limit and lane below decides differently on the estimate.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false", "infergate.auth.enabled=true",
				"infergate.flow-control.enabled=false", "infergate.auth.keys.roomy.limits.tpm=1000000",
				"infergate.models.qwen.pool=q", "infergate.models.qwen.target-model=qwen",
				"infergate.models.one-over.target-model=qwen", "infergate.models.just-fits.target-model=qwen" })
class ExactTokensTests extends SimulatedPods {

	@Autowired
	private MeterRegistry meters;

	private static final String ROOMY = "sk-roomy-0123456789";

	private static final String EXACT = "sk-exact-0123456789";

	private static final String ONE_SHORT = "sk-one-short-0123456789";

	private static final int MAX_TOKENS = 5;

	/** " hello" is one token, the estimate counts 1.5. */
	private static final List<Map<String, String>> MESSAGES = List.of(
			Map.of("role", "system", "content", "You greet."),
			Map.of("role", "user", "content", "hello" + " hello".repeat(49)));

	/** The prompt's tokens by Qwen3's tokenizer and chat template. */
	static int promptTokens;

	@DynamicPropertySource
	static void pools(DynamicPropertyRegistry registry) {
		String tokenizer = TestTokenizers.qwen3().toString();
		try (ModelTokenizer qwen = ModelTokenizer.load(TestTokenizers.qwen3(), null)) {
			promptTokens = qwen.encodeChat(MESSAGES, null, Map.of()).length;
		}
		PromptEncoder encoder = PromptEncoder.load(TestTokenizers.qwen3(), null);
		for (String pool : List.of("q", "short", "long")) {
			String url = sims.start(SimulatorConfig.builder("qwen")
				.engine(EngineConfig.builder().perfProfile(PerfProfile.ZERO).maxModelLen(131_072).build())
				.promptEncoder(encoder)
				.build()).baseUrl();
			registry.add("infergate.pools." + pool + ".endpoints", () -> url);
			registry.add("infergate.pools." + pool + ".tokenizer.path", () -> tokenizer);
		}
		int needed = promptTokens + MAX_TOKENS;
		registry.add("infergate.auth.keys.roomy.sha256", () -> ApiKeyHash.sha256Hex(ROOMY));
		registry.add("infergate.auth.keys.exact.sha256", () -> ApiKeyHash.sha256Hex(EXACT));
		registry.add("infergate.auth.keys.exact.limits.tpm", () -> 2 * needed);
		registry.add("infergate.auth.keys.one-short.sha256", () -> ApiKeyHash.sha256Hex(ONE_SHORT));
		registry.add("infergate.auth.keys.one-short.limits.tpm", () -> 2 * needed - 1);
		registry.add("infergate.models.one-over.lanes[0].max-tokens", () -> needed - 1);
		registry.add("infergate.models.one-over.lanes[0].pool", () -> "short");
		registry.add("infergate.models.one-over.lanes[1].pool", () -> "long");
		registry.add("infergate.models.just-fits.lanes[0].max-tokens", () -> needed);
		registry.add("infergate.models.just-fits.lanes[0].pool", () -> "short");
		registry.add("infergate.models.just-fits.lanes[1].pool", () -> "long");
		for (int turn = 0; turn < 3; turn++) {
			int key = turn;
			registry.add("infergate.auth.keys.turn" + key + ".sha256", () -> ApiKeyHash.sha256Hex(turnKey(key)));
			registry.add("infergate.auth.keys.turn" + key + ".limits.tpm", () -> 1_000_000);
		}
		// a model's own tokenizer is used even when its lanes' pools have one
		registry.add("infergate.models.just-fits.tokenizer.path", () -> tokenizer);
	}

	@BeforeEach
	void podsAreReady() {
		awaitEveryPoolReady();
	}

	@Test
	void theEstimateWouldBeFarOff() {
		String text = "system" + "You greet." + "user" + MESSAGES.get(1).get("content");
		assertThat(text.length() / 4).isGreaterThan(promptTokens + 10);
	}

	@Test
	void thePromptTokensTheGatewayCountsAreTheOnesTheEngineReports() {
		HttpResponse<String> response = chat(ROOMY, "qwen");

		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		long remaining = Long.parseLong(response.headers().firstValue("x-ratelimit-remaining-tokens").orElseThrow());
		long reserved = 1_000_000 - remaining;
		int engineCount = json(response).path("usage").path("prompt_tokens").asInt();
		assertThat(reserved - MAX_TOKENS).isEqualTo(engineCount).isEqualTo(promptTokens);
	}

	/**
	 * A conversation's later turns repeat its earlier ones: those stretches come from the tokenizer's cache, and every
	 * turn's count is still the engine's (a key per turn, each bucket full when its turn comes).
	 */
	@Test
	void aConversationsRepeatedTurnsComeFromTheCacheAndStillCountAsTheEngineCounts() {
		FunctionCounter hits = meters.get(TokenizerCacheMeters.LOOKUPS)
			.tag("tokenizer", TestTokenizers.qwen3().resolve(ModelTokenizer.TOKENIZER_FILE).toString())
			.tag("result", "hit")
			.functionCounter();
		double hitsBefore = hits.count();
		List<Map<String, String>> conversation = new ArrayList<>();
		conversation.add(Map.of("role", "system", "content", "You answer in one word, in a language of your choice."));
		for (int turn = 0; turn < 3; turn++) {
			conversation.add(Map.of("role", "user", "content", "Question " + turn + ": what is "
					+ "the colour of the sky ".repeat(turn + 1) + "in Tokyo? 東京の空"));
			HttpResponse<String> response = send(turnKey(turn), JsonMapper.builder()
				.build()
				.writeValueAsString(Map.of("model", "qwen", "max_tokens", MAX_TOKENS, "messages", conversation)));
			assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
			long reserved = 1_000_000
					- Long.parseLong(response.headers().firstValue("x-ratelimit-remaining-tokens").orElseThrow());
			assertThat(reserved - MAX_TOKENS).as("turn %d", turn)
				.isEqualTo(json(response).path("usage").path("prompt_tokens").asLong());
			conversation.add(Map.of("role", "assistant", "content", json(response).path("choices").path(0)
				.path("message").path("content").asString()));
		}
		// turn 1 repeats the system prompt and turn 0's question; turn 2 those, turn 1's question and both answers
		assertThat(hits.count() - hitsBefore).isGreaterThanOrEqualTo(2 + 5);
	}

	private static String turnKey(int turn) {
		return "sk-turn" + turn + "-0123456789";
	}

	/**
	 * A limit of two requests' tokens takes two, and one token less takes one: the second is refused at once (a token
	 * refills every 60 s / (2 × (prompt + max_tokens)), about 0.45 s here). A limit takes one request larger than
	 * itself when full, so two requests are what shows the count exact.
	 */
	@Test
	void aTokensPerMinuteLimitTakesRequestsUpToExactlyItsTokens() {
		assertThat(chat(EXACT, "qwen").statusCode()).isEqualTo(200);
		HttpResponse<String> second = chat(EXACT, "qwen");
		assertThat(second.statusCode()).as(second.body()).isEqualTo(200);
		assertThat(second.headers().firstValue("x-ratelimit-remaining-tokens")).hasValue("0");

		assertThat(chat(ONE_SHORT, "qwen").statusCode()).isEqualTo(200);
		HttpResponse<String> refused = chat(ONE_SHORT, "qwen");
		assertThat(refused.statusCode()).as(refused.body()).isEqualTo(429);
	}

	@Test
	void aPromptOneTokenOverALanesLimitGoesToTheNextLane() {
		HttpResponse<String> over = chat(ROOMY, "one-over");
		HttpResponse<String> fits = chat(ROOMY, "just-fits");

		assertThat(over.statusCode()).as(over.body()).isEqualTo(200);
		assertThat(over.headers().firstValue("x-infergate-pool")).hasValue("long");
		assertThat(fits.statusCode()).as(fits.body()).isEqualTo(200);
		assertThat(fits.headers().firstValue("x-infergate-pool")).hasValue("short");
	}

	@Test
	void everyPoolSaysItsTokensAreExact() {
		JsonNode inference = json(Http.getAsAdmin(managementUrl("/actuator/inference")));

		assertThat(inference.path("pools").valueStream().map((pool) -> pool.path("tokenCounts").asString()))
			.containsOnly("exact");
		assertThat(inference.path("pools").get(0).path("tokenizer").asString()).endsWith("tokenizer.json");
	}

	@Test
	void aMessageWithoutTextIs400() {
		HttpResponse<String> response = send(ROOMY, "{\"model\":\"qwen\",\"max_tokens\":5,\"messages\":[{\"role\":"
				+ "\"user\",\"content\":{\"not\":\"text\"}}]}");

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(json(response).path("error").path("type").asString()).isEqualTo("invalid_request_error");
		assertThat(json(response).path("error").path("param").asString()).startsWith("messages");
	}

	@Test
	void loneSurrogatesAreTokenizedQuickly() {
		long start = System.nanoTime();
		HttpResponse<String> response = send(ROOMY, "{\"model\":\"qwen\",\"max_tokens\":1,\"messages\":[{\"role\":"
				+ "\"user\",\"content\":\"broken \\ud800 pair \\udc00\\ud800 end\"}]}");

		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
	}

	@Test
	void aMegabyteOfOneCharacterIsRefusedAt400Quickly() {
		long start = System.nanoTime();
		HttpResponse<String> response = send(ROOMY, "{\"model\":\"qwen\",\"max_tokens\":1,\"messages\":[{\"role\":"
				+ "\"user\",\"content\":\"" + "a".repeat(1 << 20) + "\"}]}");

		assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
		assertThat(json(response).path("error").path("message").asString()).contains("too large for its tokens");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
	}

	@Test
	void halfAMegabyteOfOneCharacterIsTokenizedOffTheEventLoop() {
		HttpResponse<String> response = send(ROOMY, "{\"model\":\"qwen\",\"max_tokens\":1,\"messages\":[{\"role\":"
				+ "\"user\",\"content\":\"" + "a".repeat(512 * 1024) + "\"}]}");

		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(json(response).path("usage").path("prompt_tokens").asInt()).isGreaterThan(512 * 1024 / 8);
	}

	private HttpResponse<String> chat(String key, String model) {
		return send(key, JsonMapper.builder()
			.build()
			.writeValueAsString(Map.of("model", model, "max_tokens", MAX_TOKENS, "messages", MESSAGES)));
	}

	private HttpResponse<String> send(String key, String body) {
		return Http.send(HttpRequest.newBuilder(URI.create(url("/v1/chat/completions")))
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/json")
			.header("Authorization", "Bearer " + key)
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build());
	}

	private static JsonNode json(HttpResponse<String> response) {
		return JsonMapper.builder().build().readTree(response.body());
	}
}
