package io.infergate.gateway;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.gateway.support.TestTokenizers;
import io.infergate.sim.SimulatorConfig;
import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.PerfProfile;
import io.infergate.sim.engine.PromptEncoder;
import io.infergate.sim.metrics.EngineFlavor;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /tokenize} and {@code /detokenize} for a pool whose engine has none (trtllm-serve: the simulated pods playing
 * it answer 404 there), answered by the gateway with the model's tokenizer (Qwen3's), with the ids a vLLM pod using
 * the same tokenizer answers; a vLLM pool's go to its pods; a trtllm-serve pool without a tokenizer gets a 404 that
 * names the property.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"infergate.models.qwen-trt.pool=trt", "infergate.models.qwen-trt.target-model=qwen",
				"infergate.models.qwen-vllm.pool=v", "infergate.models.qwen-vllm.target-model=qwen",
				"infergate.models.bare.pool=bare", "infergate.models.bare.target-model=qwen",
				"infergate.pools.trt.engine=trtllm-serve", "infergate.pools.bare.engine=trtllm-serve" })
class TokenizerEndpointsTests extends SimulatedPods {

	private static final int MAX_MODEL_LEN = 32_768;

	private static final String HELLO_CHAT = "[{\"role\": \"user\", \"content\": \"Hello world\"}]";

	@DynamicPropertySource
	static void pools(DynamicPropertyRegistry registry) {
		String tokenizer = TestTokenizers.qwen3().toString();
		PromptEncoder encoder = PromptEncoder.load(TestTokenizers.qwen3(), null);
		for (String pool : List.of("trt", "v", "bare")) {
			String url = sims.start(SimulatorConfig.builder("qwen")
				.engineFlavor(pool.equals("v") ? EngineFlavor.VLLM : EngineFlavor.TRTLLM)
				.engine(EngineConfig.builder().perfProfile(PerfProfile.ZERO).maxModelLen(MAX_MODEL_LEN).build())
				.promptEncoder(encoder)
				.build()).baseUrl();
			registry.add("infergate.pools." + pool + ".endpoints", () -> url);
			if (!pool.equals("bare")) {
				registry.add("infergate.pools." + pool + ".tokenizer.path", () -> tokenizer);
			}
		}
	}

	@Test
	void aPromptIsTokenizedWithTheTokenizersSpecialTokensAsVllmDoes() {
		HttpResponse<String> response = post("/tokenize", "{\"model\": \"qwen-trt\", \"prompt\": \"Hello world\"}");

		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("application/json"));
		assertThat(json(response)).isEqualTo(JsonMapper.builder().build().readTree(
				"{\"count\": 2, \"max_model_len\": null, \"tokens\": [9707, 1879], \"token_strs\": null}"));
	}

	@Test
	void messagesAreTemplatedAndGiveTheIdsAVllmPodWithTheSameTokenizerGives() {
		String body = "{\"model\": \"%s\", \"messages\": " + HELLO_CHAT + ", \"return_token_strs\": true}";
		HttpResponse<String> gateway = post("/tokenize", body.formatted("qwen-trt"));
		HttpResponse<String> engine = post("/tokenize", body.formatted("qwen-vllm"));

		assertThat(gateway.statusCode()).as(gateway.body()).isEqualTo(200);
		assertThat(engine.statusCode()).as(engine.body()).isEqualTo(200);
		assertThat(ids(json(gateway).path("tokens")))
			.containsExactly(151644, 872, 198, 9707, 1879, 151645, 198, 151644, 77091, 198)
			.isEqualTo(ids(json(engine).path("tokens")));
		assertThat(json(gateway).path("token_strs").get(4).asString()).isEqualTo("\u0120world");
		assertThat(json(gateway).path("token_strs")).hasSize(10);
		assertThat(json(engine).path("max_model_len").asInt()).as("the vLLM pool's pod answered")
			.isEqualTo(MAX_MODEL_LEN);
		assertThat(json(gateway).path("max_model_len").isNull()).as("the gateway answered").isTrue();

		HttpResponse<String> withoutPrompt = post("/tokenize", "{\"model\": \"qwen-trt\", \"messages\": "
				+ HELLO_CHAT + ", \"add_generation_prompt\": false}");
		assertThat(ids(json(withoutPrompt).path("tokens"))).containsExactly(151644, 872, 198, 9707, 1879, 151645, 198);
	}

	@Test
	void tokensAreDetokenizedToTheirText() {
		HttpResponse<String> response = post("/detokenize",
				"{\"model\": \"qwen-trt\", \"tokens\": [151644, 872, 198, 9707, 1879]}");

		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(json(response).path("prompt").asString()).isEqualTo("<|im_start|>user\nHello world");
	}

	@Test
	void aBodyThatIsNotSuchARequestIs400NamingTheField() {
		for (Map.Entry<String, String> bad : Map.of(
				"{\"model\": \"qwen-trt\", \"prompt\": 42}", "prompt",
				"{\"model\": \"qwen-trt\"}", "prompt",
				"{\"model\": \"qwen-trt\", \"messages\": " + HELLO_CHAT + ", \"add_special_tokens\": \"yes\"}",
				"add_special_tokens",
				"{\"model\": \"qwen-trt\", \"messages\": " + HELLO_CHAT + ", \"continue_final_message\": true}",
				"continue_final_message").entrySet()) {
			HttpResponse<String> response = post("/tokenize", bad.getKey());
			assertThat(response.statusCode()).as(bad.getKey()).isEqualTo(400);
			assertThat(json(response).path("error").path("param").asString()).as(bad.getKey()).isEqualTo(bad.getValue());
		}
		for (String tokens : List.of("[\"x\"]", "[-1]", "[1.5]", "\"12\"")) {
			HttpResponse<String> response = post("/detokenize",
					"{\"model\": \"qwen-trt\", \"tokens\": " + tokens + "}");
			assertThat(response.statusCode()).as(tokens).isEqualTo(400);
			assertThat(json(response).path("error").path("param").asString()).isEqualTo("tokens");
		}
	}

	@Test
	void aPoolWhoseEngineHasNoTokenizerEndpointAndNoTokenizerGetsA404NamingTheProperty() {
		HttpResponse<String> response = post("/tokenize", "{\"model\": \"bare\", \"prompt\": \"Hello world\"}");

		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(json(response).path("error").path("code").asString()).isEqualTo("unsupported_endpoint");
		assertThat(json(response).path("error").path("message").asString())
			.contains("trtllm-serve", "/tokenize", "infergate.pools.bare.tokenizer.path");
	}

	private HttpResponse<String> post(String path, String body) {
		return Http.postJson(url(path), body);
	}

	private static JsonNode json(HttpResponse<String> response) {
		return JsonMapper.builder().build().readTree(response.body());
	}

	private static List<Integer> ids(JsonNode array) {
		return array.valueStream().map(JsonNode::asInt).toList();
	}
}
