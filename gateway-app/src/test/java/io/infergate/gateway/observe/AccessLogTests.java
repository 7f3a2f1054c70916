package io.infergate.gateway.observe;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.support.AccessLines;
import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.gateway.support.Sims;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The access log, when on: one bare JSON line per inference request, with no prompt or completion text. */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false", "infergate.access-log.enabled=true",
				"infergate.models.llama.pool=llama", "infergate.models.llama.target-model=llama" })
class AccessLogTests extends SimulatedPods {

	static final String PROMPT = "the secret plan is under the floorboards";

	static SimulatedModelServer pod;

	@DynamicPropertySource
	static void pool(DynamicPropertyRegistry registry) {
		pod = sims.start("llama");
		registry.add("infergate.pools.llama.endpoints", pod::baseUrl);
	}

	@BeforeEach
	void ready() {
		awaitReady("llama");
	}

	@Test
	void aServedRequestIsOneJsonLineWithoutItsText(CapturedOutput output) {
		String completion = Http.postJson(url("/v1/chat/completions"), Http.chat("llama", PROMPT, false, 6)).body();
		String completionText = JsonMapper.shared().readTree(completion).at("/choices/0/message/content").asString();

		await().until(() -> AccessLines.in(output).size() == 1);
		JsonNode line = AccessLines.in(output).get(0);

		assertThat(line.get("requestId").asString()).isNotBlank();
		assertThat(line.get("model").asString()).isEqualTo("llama");
		assertThat(line.get("pool").asString()).isEqualTo("llama");
		assertThat(line.get("endpoint").asString()).isEqualTo(Sims.id(pod));
		assertThat(line.get("status").asInt()).isEqualTo(200);
		assertThat(line.get("ttftMs").asDouble()).isPositive();
		assertThat(line.get("durationMs").asDouble()).isGreaterThanOrEqualTo(line.get("ttftMs").asDouble());
		assertThat(line.get("outputTokens").asInt()).isEqualTo(6);
		assertThat(line.get("inputTokens").asInt()).isPositive();
		assertThat(line.has("keyId")).isTrue();
		assertThat(line.has("tenant")).isTrue();
		assertThat(line.has("queueWaitMs")).isTrue();
		assertThat(output.getOut()).doesNotContain(PROMPT).doesNotContain(completionText.trim());
	}

	@Test
	void aRejectedRequestIsLoggedWithItsStatus(CapturedOutput output) {
		assertThat(Http.postJson(url("/v1/chat/completions"), Http.chat("no-such-model", PROMPT, false, 2)).statusCode())
			.isEqualTo(404);

		await().until(() -> AccessLines.in(output).size() == 1);
		JsonNode line = AccessLines.in(output).get(0);

		assertThat(line.get("status").asInt()).isEqualTo(404);
		assertThat(line.get("model").asString()).isEqualTo("no-such-model");
		assertThat(line.get("pool").isNull()).isTrue();
		assertThat(line.get("ttftMs").isNull()).as("no token was relayed").isTrue();
		assertThat(line.get("durationMs").asDouble()).isPositive();
	}
}
