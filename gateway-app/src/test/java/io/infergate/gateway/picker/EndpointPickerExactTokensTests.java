package io.infergate.gateway.picker;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.picker.EnvoyDataPlane.Relayed;
import io.infergate.gateway.picker.EnvoyDataPlane.RequestAnswer;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.gateway.support.TestTokenizers;
import io.infergate.routing.auth.ApiKeyHash;
import io.infergate.sim.SimulatorConfig;
import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.PerfProfile;
import io.infergate.sim.engine.PromptEncoder;
import io.infergate.tokenizers.ModelTokenizer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With the model's tokenizer configured (Qwen3's), the picker counts a prompt as the engine does: a simulated pod
 * started with the same tokenizer reports the tokens the picker reserved.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"infergate.endpoint-picker.enabled=true", "infergate.endpoint-picker.port=0",
				"infergate.endpoint-picker.health-port=0", "infergate.auth.enabled=true",
				"infergate.flow-control.enabled=false", "infergate.auth.keys.roomy.limits.tpm=1000000",
				"infergate.models.qwen.pool=q", "infergate.models.qwen.target-model=qwen" })
class EndpointPickerExactTokensTests extends SimulatedPods {

	private static final String ROOMY = "sk-roomy-0123456789";

	private static final int MAX_TOKENS = 5;

	private static final List<Map<String, String>> MESSAGES = List.of(
			Map.of("role", "system", "content", "You greet through the picker."),
			Map.of("role", "user", "content", "hello" + " hello".repeat(49)));

	static int promptTokens;

	@Autowired
	PickerServer server;

	EnvoyDataPlane envoy;

	@DynamicPropertySource
	static void pool(DynamicPropertyRegistry registry) {
		try (ModelTokenizer qwen = ModelTokenizer.load(TestTokenizers.qwen3(), null)) {
			promptTokens = qwen.encodeChat(MESSAGES, null, Map.of()).length;
		}
		String url = sims.start(SimulatorConfig.builder("qwen")
			.engine(EngineConfig.builder().perfProfile(PerfProfile.ZERO).maxModelLen(131_072).build())
			.promptEncoder(PromptEncoder.load(TestTokenizers.qwen3(), null))
			.build()).baseUrl();
		registry.add("infergate.pools.q.endpoints", () -> url);
		registry.add("infergate.pools.q.tokenizer.path", () -> TestTokenizers.qwen3().toString());
		registry.add("infergate.auth.keys.roomy.sha256", () -> ApiKeyHash.sha256Hex(ROOMY));
	}

	@BeforeEach
	void connect() {
		awaitEveryPoolReady();
		envoy = new EnvoyDataPlane(server.port());
	}

	@AfterEach
	void close() {
		envoy.close();
	}

	@Test
	void thePromptTokensThePickerReservesAreTheOnesTheEngineReports() throws Exception {
		byte[] body = JsonMapper.builder()
			.build()
			.writeValueAsString(Map.of("model", "qwen", "max_tokens", MAX_TOKENS, "messages", MESSAGES))
			.getBytes(StandardCharsets.UTF_8);
		EnvoyDataPlane.Stream stream = envoy.open()
			.requestHeaders("/v1/chat/completions", Map.of("authorization", "Bearer " + ROOMY), null, false)
			.requestBody(body, true);
		RequestAnswer answer = stream.awaitRequestAnswer(false);
		assertThat(answer.isImmediate()).as("immediate %s", answer.immediate()).isFalse();
		Relayed relayed = stream.forward("/v1/chat/completions", answer);
		assertThat(relayed.status()).isEqualTo(200);
		String remaining = RequestAnswer.header(relayed.headersAnswer()
			.getResponseHeaders()
			.getResponse()
			.getHeaderMutation()
			.getSetHeadersList(), "x-ratelimit-remaining-tokens");
		long reserved = 1_000_000 - Long.parseLong(remaining);
		int engineCount = JsonMapper.builder().build().readTree(relayed.body()).path("usage").path("prompt_tokens")
			.asInt();
		assertThat(reserved - MAX_TOKENS).isEqualTo(engineCount).isEqualTo(promptTokens);
	}
}
