package io.infergate.gateway;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.gateway.support.Sims;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.engine.PerfProfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Model routing end to end against simulated vLLM pods: weighted splits and stickiness, lanes, every fallback
 * trigger, what the responses and {@code /actuator/inference} say about it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"infergate.scheduling.default-profile=least-request" })
class ModelRoutingTests extends SimulatedPods {

	static final JsonMapper json = JsonMapper.builder().build();

	static SimulatedModelServer stable0, stable1, canary, shortLane, longLane, primary, secondary, tiny, gone;

	@DynamicPropertySource
	static void pools(DynamicPropertyRegistry registry) {
		stable0 = fast("llama-3.1");
		stable1 = fast("llama-3.1");
		canary = fast("llama-3.3");
		shortLane = fast("llama-3.1");
		longLane = fast("llama-3.1");
		// a model length of 64 tokens, so a long prompt gets vLLM's context-length 400
		primary = sims.start("small", PerfProfile.ZERO, (engine) -> engine.maxModelLen(64));
		secondary = fast("large");
		// 4 blocks of 16 tokens: a longer request gets a 400 that is not about the context length
		tiny = sims.start("small", PerfProfile.ZERO, (engine) -> engine.numKvBlocks(4));
		gone = fast("small");
		registry.add("infergate.pools.stable.endpoints", () -> Sims.urls(stable0, stable1));
		registry.add("infergate.pools.canary.endpoints", () -> Sims.urls(canary));
		registry.add("infergate.pools.short.endpoints", () -> Sims.urls(shortLane));
		registry.add("infergate.pools.long.endpoints", () -> Sims.urls(longLane));
		registry.add("infergate.pools.primary.endpoints", () -> Sims.urls(primary));
		registry.add("infergate.pools.secondary.endpoints", () -> Sims.urls(secondary));
		registry.add("infergate.pools.tiny.endpoints", () -> Sims.urls(tiny));
		registry.add("infergate.pools.gone.endpoints", () -> Sims.urls(gone));
		for (String model : List.of("chat", "chat-sticky", "chat-keyed")) {
			registry.add("infergate.models." + model + ".targets[0].pool", () -> "stable");
			registry.add("infergate.models." + model + ".targets[0].target-model", () -> "llama-3.1");
			registry.add("infergate.models." + model + ".targets[0].weight", () -> "90");
			registry.add("infergate.models." + model + ".targets[1].pool", () -> "canary");
			registry.add("infergate.models." + model + ".targets[1].target-model", () -> "llama-3.3");
			registry.add("infergate.models." + model + ".targets[1].weight", () -> "10");
		}
		registry.add("infergate.models.chat-sticky.sticky-by", () -> "user");
		registry.add("infergate.models.chat-keyed.sticky-by", () -> "api-key");
		registry.add("infergate.models.summarize.target-model", () -> "llama-3.1");
		registry.add("infergate.models.summarize.lanes[0].max-tokens", () -> "100");
		registry.add("infergate.models.summarize.lanes[0].pool", () -> "short");
		registry.add("infergate.models.summarize.lanes[1].pool", () -> "long");
		for (String model : List.of("primary", "tiny", "gone")) {
			registry.add("infergate.models." + model + ".pool", () -> model);
			registry.add("infergate.models." + model + ".target-model", () -> "small");
			registry.add("infergate.models." + model + ".fallbacks", () -> "secondary");
		}
		registry.add("infergate.models.secondary.pool", () -> "secondary");
		registry.add("infergate.models.secondary.target-model", () -> "large");
	}

	private static SimulatedModelServer fast(String model) {
		return sims.start(model, PerfProfile.ZERO, (engine) -> {
		});
	}

	@BeforeEach
	void everyPoolStillUpIsReady() {
		await().atMost(Duration.ofSeconds(30)).until(() -> endpoints.pools()
			.stream()
			.filter((pool) -> !pool.name().equals("gone"))
			.allMatch((pool) -> pool.endpoints().stream().allMatch(Endpoint::isReady)));
	}

	@AfterEach
	void clearFaults() {
		primary.faults().clear();
	}

	private HttpResponse<String> chat(String model, String user, String content, int maxTokens) {
		String body = "{\"model\":\"" + model + "\",\"max_tokens\":" + maxTokens
				+ ((user != null) ? ",\"user\":\"" + user + "\"" : "")
				+ ",\"messages\":[{\"role\":\"user\",\"content\":\"" + content + "\"}]}";
		return Http.postJson(url("/v1/chat/completions"), body);
	}

	private static String header(HttpResponse<?> response, String name) {
		return response.headers().firstValue(name).orElse(null);
	}

	@Test
	void aNinetyTenSplitOverTwoThousandRequestsLandsWithinTwoPoints() {
		Map<String, Integer> byModel = new HashMap<>();
		for (int i = 0; i < 2000; i++) {
			HttpResponse<String> response = chat("chat", null, "request " + i, 1);
			assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
			byModel.merge(header(response, "x-infergate-model"), 1, Integer::sum);
		}

		double canaryShare = byModel.getOrDefault("llama-3.3", 0) / 2000.0;
		assertThat(canaryShare).as("canary share of %s", byModel).isBetween(0.08, 0.12);
		assertThat(byModel.get("llama-3.1") + byModel.get("llama-3.3")).isEqualTo(2000);
		JsonNode chat = model(inference(), "chat");
		assertThat(chat.path("targets").get(0).path("requests").asInt()).isEqualTo(byModel.get("llama-3.1"));
		assertThat(chat.path("targets").get(1).path("requests").asInt()).isEqualTo(byModel.get("llama-3.3"));
		assertThat(chat.path("targets").get(1).path("weight").asInt()).isEqualTo(10);
	}

	@Test
	void stickyByUserKeepsEachUserOnOneTarget() {
		Map<String, Set<String>> modelsByUser = new HashMap<>();
		for (int round = 0; round < 3; round++) {
			for (int user = 0; user < 100; user++) {
				HttpResponse<String> response = chat("chat-sticky", "user-" + user, "turn " + round, 1);
				assertThat(response.statusCode()).isEqualTo(200);
				modelsByUser.computeIfAbsent("user-" + user, (u) -> new HashSet<>())
					.add(header(response, "x-infergate-model"));
			}
		}

		assertThat(modelsByUser.values()).allSatisfy((models) -> assertThat(models).hasSize(1));
		assertThat(modelsByUser.values().stream().flatMap(Set::stream).distinct())
			.containsExactlyInAnyOrder("llama-3.1", "llama-3.3");
	}

	@Test
	void stickyByApiKeyKeepsEveryoneOnOneTargetWhileAuthenticationIsOff() {
		Set<String> models = new HashSet<>();
		for (int user = 0; user < 50; user++) {
			models.add(header(chat("chat-keyed", "user-" + user, "hi", 1), "x-infergate-model"));
		}

		assertThat(models).hasSize(1);
		assertThat(model(inference(), "chat-keyed").path("stickyBy").asString()).isEqualTo("api-key");
	}

	@Test
	void aLongPromptTakesTheLongLaneAndAShortOneTheShortLane() {
		HttpResponse<String> small = chat("summarize", null, "short text", 16);
		HttpResponse<String> large = chat("summarize", null, "x".repeat(400), 16);

		assertThat(small.statusCode()).isEqualTo(200);
		assertThat(header(small, "x-infergate-pool")).isEqualTo("short");
		assertThat(large.statusCode()).isEqualTo(200);
		assertThat(header(large, "x-infergate-pool")).isEqualTo("long");
		assertThat(header(large, "x-infergate-endpoint")).isEqualTo(Sims.id(longLane));
	}

	@Test
	void fallsBackWhenThePoolAnswers503() {
		primary.faults().failNextGenerations(1, 503);

		assertServedByTheFallback(chat("primary", null, "hello", 4));
	}

	@Test
	void fallsBackWhenThePoolAnswers429() {
		primary.faults().failNextGenerations(1, 429);

		assertServedByTheFallback(chat("primary", null, "hello", 4));
	}

	@Test
	void fallsBackWhenThePoolAnswers500() {
		primary.faults().failNextGenerations(1, 500);

		assertServedByTheFallback(chat("primary", null, "hello", 4));
	}

	@Test
	void fallsBackOnTheModelServersContextLengthError() {
		// about 100 tokens against a model length of 64
		HttpResponse<String> direct = Http.postJson(primary.baseUrl() + "/v1/chat/completions",
				Http.chat("small", "x".repeat(400), false, 4));

		HttpResponse<String> response = chat("primary", null, "x".repeat(400), 4);

		assertThat(direct.statusCode()).isEqualTo(400);
		assertThat(direct.body()).contains("maximum context length");
		assertServedByTheFallback(response);
	}

	@Test
	void fallsBackWhenEveryEndpointOfThePoolIsDown() {
		gone.close();

		assertServedByTheFallback(chat("gone", null, "hello", 4));
		await().atMost(Duration.ofSeconds(10))
			.until(() -> endpoints.pool("gone").endpoints().stream().noneMatch(Endpoint::isReady));
		assertServedByTheFallback(chat("gone", null, "hello again", 4));
	}

	@Test
	void aBadRequestThatIsNotAboutTheContextLengthReachesTheClientAsSent() {
		HttpResponse<String> response = chat("tiny", null, "x".repeat(400), 16);

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).contains("KV-cache blocks").contains("\"type\":\"BadRequestError\"");
		assertThat(header(response, "x-infergate-fallbacks")).isEqualTo("0");
		assertThat(header(response, "x-infergate-pool")).isEqualTo("tiny");
	}

	@Test
	void neverFallsBackOnceTheFirstByteIsSent() {
		primary.faults().abortStreamsAfterChunks(2);

		HttpResponse<String> response = Http.postJson(url("/v1/chat/completions"), Http.chat("primary", "hi", true, 20));

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("upstream_stream_error");
		assertThat(header(response, "x-infergate-fallbacks")).isEqualTo("0");
		assertThat(header(response, "x-infergate-model")).isEqualTo("small");
	}

	@Test
	void theActuatorCountsTheFallbacksTaken() {
		long before = model(inference(), "primary").path("fallbacksTaken").asLong();
		primary.faults().failNextGenerations(1, 429);

		assertServedByTheFallback(chat("primary", null, "hello", 4));

		JsonNode primaryModel = model(inference(), "primary");
		assertThat(primaryModel.path("fallbacksTaken").asLong()).isEqualTo(before + 1);
		assertThat(primaryModel.path("fallbacks").get(0).asString()).isEqualTo("secondary");
		assertThat(primaryModel.path("stickyBy").asString()).isEqualTo("none");
		JsonNode summarize = model(inference(), "summarize");
		assertThat(summarize.path("lanes").get(0).path("maxTokens").asInt()).isEqualTo(100);
		assertThat(summarize.path("lanes").get(1).path("maxTokens").isNull()).isTrue();
	}

	private void assertServedByTheFallback(HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(response.body()).contains("\"model\":\"large\"");
		assertThat(header(response, "x-infergate-fallbacks")).isEqualTo("1");
		assertThat(header(response, "x-infergate-model")).isEqualTo("large");
		assertThat(header(response, "x-infergate-pool")).isEqualTo("secondary");
		assertThat(header(response, "x-infergate-endpoint")).isEqualTo(Sims.id(secondary));
	}

	private JsonNode inference() {
		return json.readTree(Http.getAsAdmin(managementUrl("/actuator/inference")).body());
	}

	private static JsonNode model(JsonNode report, String name) {
		for (JsonNode model : report.path("models")) {
			if (model.path("name").asString().equals(name)) {
				return model;
			}
		}
		throw new AssertionError("no model " + name + " in " + report.path("models"));
	}
}
