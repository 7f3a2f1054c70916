package io.infergate.gateway;

import java.net.http.HttpResponse;
import java.util.List;

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
import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.engine.PerfProfile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The APIs besides chat and completions, routed by the body's {@code model} like chat: the Responses API,
 * embeddings, vLLM's rerank, score, tokenize and detokenize, and the model list.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"infergate.scheduling.default-profile=default",
				"infergate.gateway.served-models-refresh-interval=1s" })
class InferenceApisRoutingTests extends SimulatedPods {

	static final JsonMapper json = JsonMapper.builder().build();

	static SimulatedModelServer embedder, chatPod;

	@DynamicPropertySource
	static void pools(DynamicPropertyRegistry registry) {
		embedder = sims.start("bge-m3", PerfProfile.ZERO, (engine) -> {
		});
		chatPod = sims.start("llama-3.1", PerfProfile.ZERO, (engine) -> {
		});
		registry.add("infergate.pools.embed.endpoints", () -> Sims.urls(embedder));
		// a profile with the prefix-cache scorer, whose score shows what the scheduler was given as a prompt
		registry.add("infergate.pools.embed.profile", () -> "llm-d");
		registry.add("infergate.pools.chat.endpoints", () -> Sims.urls(chatPod));
		registry.add("infergate.models.embeddings.pool", () -> "embed");
		registry.add("infergate.models.embeddings.target-model", () -> "bge-m3");
		registry.add("infergate.models.assistant.pool", () -> "chat");
		registry.add("infergate.models.assistant.target-model", () -> "llama-3.1");
		registry.add("infergate.models.assistant.fallbacks", () -> "embeddings");
	}

	@BeforeEach
	void everyPoolIsReady() {
		awaitEveryPoolReady();
	}

	private HttpResponse<String> post(String path, String body) {
		return Http.postJson(url(path), body);
	}

	private static void assertServedBy(HttpResponse<String> response, SimulatedModelServer pod, String model) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(response.headers().firstValue("x-infergate-endpoint")).hasValue(Sims.id(pod));
		assertThat(response.headers().firstValue("x-infergate-model")).hasValue(model);
	}

	@Test
	void routesEmbeddingsByAliasAndRewritesTheModel() {
		HttpResponse<String> response = post("/v1/embeddings",
				"{\"model\":\"embeddings\",\"input\":[\"first document\",\"second document\"]}");

		assertServedBy(response, embedder, "bge-m3");
		JsonNode body = json.readTree(response.body());
		assertThat(body.path("model").asString()).isEqualTo("bge-m3");
		assertThat(body.path("data")).hasSize(2);
	}

	@Test
	void embeddingsCarryNoPromptToTheScheduler() {
		post("/v1/embeddings", "{\"model\":\"embeddings\",\"input\":\"" + "a shared document prefix ".repeat(20) + "\"}");

		JsonNode decision = json.readTree(Http.getAsAdmin(managementUrl("/actuator/inference")).body()).path("decisions").get(0);

		assertThat(decision.path("pool").asString()).isEqualTo("embed");
		assertThat(decision.path("scores").isEmpty()).isFalse();
		decision.path("scores").forEach((endpoint) -> assertThat(endpoint.path("scorers").path("prefix-cache").isNumber())
			.isTrue());
		decision.path("scores").forEach((endpoint) -> assertThat(endpoint.path("scorers").path("prefix-cache").asDouble())
			.isZero());
	}

	@Test
	void routesTheResponsesApi() {
		HttpResponse<String> response = post("/v1/responses",
				"{\"model\":\"assistant\",\"instructions\":\"be brief\",\"input\":\"hello\",\"max_output_tokens\":4}");

		assertServedBy(response, chatPod, "llama-3.1");
		assertThat(json.readTree(response.body()).path("usage").path("output_tokens").asInt()).isEqualTo(4);
	}

	@Test
	void routesVllmsRerankAndScore() {
		HttpResponse<String> rerank = post("/v1/rerank",
				"{\"model\":\"embeddings\",\"query\":\"abcd\",\"documents\":[\"zzzz\",\"abcd\"]}");
		HttpResponse<String> score = post("/v1/score",
				"{\"model\":\"embeddings\",\"text_1\":\"abcd\",\"text_2\":[\"abcd\",\"zzzz\"]}");

		assertServedBy(rerank, embedder, "bge-m3");
		assertThat(json.readTree(rerank.body()).path("results").get(0).path("index").asInt()).isEqualTo(1);
		assertServedBy(score, embedder, "bge-m3");
		assertThat(json.readTree(score.body()).path("data")).hasSize(2);
	}

	@Test
	void routesVllmsTokenizeAndDetokenize() {
		HttpResponse<String> tokenized = post("/tokenize", "{\"model\":\"assistant\",\"prompt\":\"abcdefgh\"}");
		HttpResponse<String> detokenized = post("/detokenize", "{\"model\":\"assistant\",\"tokens\":[1,2]}");

		assertServedBy(tokenized, chatPod, "llama-3.1");
		assertThat(json.readTree(tokenized.body()).path("count").asInt()).isEqualTo(2);
		assertServedBy(detokenized, chatPod, "llama-3.1");
	}

	@Test
	void listsAliasesAndServedModels() {
		JsonNode models = json.readTree(Http.get(url("/v1/models")).body()).path("data");

		List<String> ids = models.valueStream().map((model) -> model.path("id").asString()).toList();
		assertThat(ids).startsWith("embeddings", "assistant").contains("bge-m3", "llama-3.1");
		JsonNode assistant = models.get(1);
		assertThat(assistant.path("pools").get(0).asString()).isEqualTo("chat");
		assertThat(assistant.path("fallbacks").get(0).asString()).isEqualTo("embeddings");
	}

	@Test
	void anUnknownModelIs404SuggestingCloseNamesAndEchoingAtMost256Characters() {
		HttpResponse<String> typo = post("/v1/embeddings", "{\"model\":\"embedings\",\"input\":\"x\"}");
		String huge = "m".repeat(10_000);
		HttpResponse<String> long404 = post("/v1/chat/completions", Http.chat(huge, "hi", false, 1));

		assertThat(typo.statusCode()).isEqualTo(404);
		assertThat(typo.body()).contains("Did you mean `embeddings`?").contains("\"code\":\"model_not_found\"");
		assertThat(long404.statusCode()).isEqualTo(404);
		assertThat(long404.body()).contains("m".repeat(256) + "…").doesNotContain("m".repeat(257));
		assertThat(Http.get(url("/v1/models/embedings")).body()).contains("Did you mean `embeddings`?");
	}
}
