package io.infergate.gateway;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.gateway.support.Sims;
import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.engine.PerfProfile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Prefix-cache-aware routing end to end, through the gateway to four simulated vLLM pods whose prefix caches are
 * real: a shared system prompt keeps landing where it is cached, load spreads a burst, unrelated prompts spread,
 * and a session sticks to its pod.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				// these tests are about decisions: a scrape made late by a busy test machine must not drop a pod
				"infergate.scheduling.saturation.staleness-threshold=2s" })
class PrefixRoutingTests extends SimulatedPods {

	static final List<SimulatedModelServer> pods = new ArrayList<>();

	@DynamicPropertySource
	static void pools(DynamicPropertyRegistry registry) {
		for (int i = 0; i < 4; i++) {
			// a small batch, so a burst queues and the saturation filter and load scorers have something to see
			pods.add(sims.start("llama", PerfProfile.LLAMA_3_1_8B_H100, (engine) -> engine.maxNumSeqs(8)));
		}
		SimulatedModelServer[] all = pods.toArray(SimulatedModelServer[]::new);
		registry.add("infergate.pools.cached.endpoints", () -> Sims.urls(all));
		registry.add("infergate.pools.cached.profile", () -> "llm-d");
		registry.add("infergate.pools.shipped-default.endpoints", () -> Sims.urls(all));
		registry.add("infergate.pools.sticky.endpoints", () -> Sims.urls(all));
		registry.add("infergate.pools.sticky.profile", () -> "session");
		registry.add("infergate.models.prefix-aware.pool", () -> "cached");
		registry.add("infergate.models.prefix-aware.target-model", () -> "llama");
		registry.add("infergate.models.by-default.pool", () -> "shipped-default");
		registry.add("infergate.models.by-default.target-model", () -> "llama");
		registry.add("infergate.models.sessions.pool", () -> "sticky");
		registry.add("infergate.models.sessions.target-model", () -> "llama");
	}

	@BeforeEach
	void everyPodIsReady() {
		awaitEveryPoolReady();
	}

	/** A system prompt of about {@code chars} characters, different for every {@code seed}. */
	private static String systemPrompt(String seed, int chars) {
		StringBuilder prompt = new StringBuilder("You are the assistant of team " + seed + ". ");
		int sentence = 0;
		while (prompt.length() < chars) {
			prompt.append("Rule ").append(sentence++).append(" for ").append(seed).append(": answer plainly and cite the policy. ");
		}
		return prompt.substring(0, chars);
	}

	private static String body(String model, String system, String question, boolean stream, int maxTokens) {
		return "{\"model\":\"" + model + "\",\"max_tokens\":" + maxTokens + ",\"stream\":" + stream + ",\"messages\":["
				+ "{\"role\":\"system\",\"content\":\"" + system + "\"},{\"role\":\"user\",\"content\":\"" + question
				+ "\"}]}";
	}

	private HttpRequest request(String json, String session) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url("/v1/chat/completions")))
			.header("Content-Type", "application/json")
			.timeout(Duration.ofSeconds(120))
			.POST(HttpRequest.BodyPublishers.ofString(json));
		if (session != null) {
			request.header("x-session-id", session);
		}
		return request.build();
	}

	private String served(HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return response.headers().firstValue("x-infergate-endpoint").orElseThrow();
	}

	private SimulatedModelServer pod(String id) {
		return pods.stream().filter((pod) -> Sims.id(pod).equals(id)).findFirst().orElseThrow();
	}

	/** llm-d's weights ({@code prefix-aware}) and the shipped default profile ({@code by-default}). */
	@ParameterizedTest
	@ValueSource(strings = { "prefix-aware", "by-default" })
	void requestsSharingASystemPromptLandOnThePodThatCachedIt(String model) {
		String system = systemPrompt("alpha-" + model, 4000);
		List<String> served = new ArrayList<>();
		served.add(served(Http.send(request(body(model, system, "Question 0?", false, 4), null))));
		long hitsAfterFirst = pod(served.get(0)).metrics().prefixCacheHitTokens();

		for (int i = 1; i < 20; i++) {
			served.add(served(Http.send(request(body(model, system, "Question " + i + "?", false, 4), null))));
		}

		assertThat(new HashSet<>(served)).containsExactly(served.get(0));
		// 19 requests each reuse the ~1000-token system prompt from the cache
		assertThat(pod(served.get(0)).metrics().prefixCacheHitTokens() - hitsAfterFirst).isGreaterThan(19 * 900);
	}

	@Test
	void theActuatorShowsPrefixMatchesAndTheIndex() {
		String system = systemPrompt("visible", 2000);
		String first = served(Http.send(request(body("prefix-aware", system, "One?", false, 2), null)));
		served(Http.send(request(body("prefix-aware", system, "Two?", false, 2), null)));

		JsonNode report = JsonMapper.builder().build()
			.readTree(Http.getAsAdmin(managementUrl("/actuator/inference")).body());

		JsonNode index = report.path("prefixIndex");
		assertThat(index.path("entries").asLong()).isPositive();
		assertThat(index.path("blocksPerEndpoint").path(first).asInt()).isPositive();
		assertThat(index.path("predictedHitRatio").asDouble()).isPositive();
		JsonNode decision = report.path("decisions").get(0);
		assertThat(decision.path("chosen").asString()).isEqualTo(first);
		assertThat(decision.path("scores").path(first).path("scorers").path("prefix-cache").asDouble())
			.isGreaterThan(0.9);
	}

	@Test
	void aBurstSharingOnePrefixIsSpreadByTheSaturationFilterAndLoadScorers() throws Exception {
		String system = systemPrompt("burst", 4000);
		served(Http.send(request(body("prefix-aware", system, "warm up", false, 4), null)));
		List<CompletableFuture<HttpResponse<String>>> burst = new ArrayList<>();
		for (int i = 0; i < 200; i++) {
			burst.add(Http.client().sendAsync(request(body("prefix-aware", system, "Burst question " + i + "?", false, 32), null),
					HttpResponse.BodyHandlers.ofString()));
		}
		Map<String, Integer> perPod = new LinkedHashMap<>();
		for (CompletableFuture<HttpResponse<String>> response : burst) {
			perPod.merge(served(response.get(120, TimeUnit.SECONDS)), 1, Integer::sum);
		}

		assertThat(perPod.keySet()).as("%s", perPod).hasSizeGreaterThanOrEqualTo(2);
		assertThat(perPod.values()).as("%s", perPod).allMatch((count) -> count < 200);
	}

	@Test
	void unrelatedPromptsSpreadOverThePods() {
		Set<String> served = new HashSet<>();
		for (int i = 0; i < 20; i++) {
			served.add(served(Http.send(request(body("prefix-aware", systemPrompt("unrelated-" + i, 600), "Hi?", false, 4), null))));
		}

		assertThat(served).hasSizeGreaterThanOrEqualTo(3);
	}

	@Test
	void aSessionStaysOnItsPodAcrossTurns() {
		for (String session : List.of("session-a", "session-b", "session-c")) {
			StringBuilder history = new StringBuilder();
			String first = null;
			for (int turn = 0; turn < 5; turn++) {
				history.append("Turn ").append(turn).append(" of ").append(session).append(". ");
				String pod = served(Http.send(request(body("sessions", "You keep notes.", history.toString(), false, 4), session)));
				if (first == null) {
					first = pod;
				}
				assertThat(pod).as("%s turn %d", session, turn).isEqualTo(first);
			}
		}
	}
}
