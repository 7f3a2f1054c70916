package io.infergate.gateway.picker;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.picker.EnvoyDataPlane.RequestAnswer;
import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.routing.auth.ApiKeyHash;
import io.infergate.routing.flowcontrol.FlowController;
import io.infergate.routing.flowcontrol.PoolFlowReport;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * API keys, InferenceObjective priorities and flow control through the picker, on one simulated pod that takes one
 * request at a time: a saturated pool sheds sheddable work with an immediate 429 and its reason, queues the rest
 * until the running request's response ends, and a bad key gets 401, all before any endpoint is chosen.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"infergate.endpoint-picker.enabled=true", "infergate.endpoint-picker.port=0",
				"infergate.endpoint-picker.health-port=0", "infergate.auth.enabled=true",
				"infergate.flow-control.detector=concurrency", "infergate.flow-control.max-requests-per-endpoint=1",
				"infergate.auth.keys.interactive.tenant=interactive", "infergate.auth.keys.interactive.priority=10",
				"infergate.models.llama.pool=p", "infergate.models.llama.target-model=llama" })
class EndpointPickerFlowControlTests extends SimulatedPods {

	static final String CHAT = "/v1/chat/completions";

	private static final String INTERACTIVE = "sk-interactive-0123456789";

	static SimulatedModelServer pod;

	@Autowired
	PickerServer server;

	@Autowired
	FlowController flowController;

	EnvoyDataPlane envoy;

	@DynamicPropertySource
	static void pool(DynamicPropertyRegistry registry) {
		pod = sims.start("llama");
		registry.add("infergate.pools.p.endpoints", pod::baseUrl);
		registry.add("infergate.auth.keys.interactive.sha256", () -> ApiKeyHash.sha256Hex(INTERACTIVE));
	}

	@TestConfiguration
	static class Objectives {

		/** The objectives an InferencePool's namespace would hold. */
		@Bean
		InferenceObjectives inferenceObjectives() {
			return (name) -> "batch".equals(name) ? OptionalInt.of(-5) : OptionalInt.empty();
		}
	}

	@BeforeEach
	void connect() {
		awaitReady("p");
		envoy = new EnvoyDataPlane(server.port());
	}

	@AfterEach
	void nothingIsLeftWaitingOrInFlight() {
		envoy.close();
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			PoolFlowReport report = flowController.report("p");
			assertThat(report.queuedRequests()).isZero();
			assertThat(report.inFlightRequests()).isZero();
		});
	}

	@Test
	void whileSaturatedSheddableWorkGets429AndTheRestWaitsForTheRunningResponse() throws Exception {
		EnvoyDataPlane.Stream running = request(Map.of());
		RequestAnswer first = running.awaitRequestAnswer(false);
		assertThat(first.isImmediate()).isFalse();

		// an objective below 0 makes the request sheddable: refused at once, with the reason
		RequestAnswer shed = request(Map.of(EndpointPicker.OBJECTIVE_HEADER, "batch")).awaitRequestAnswer(false);
		assertThat(shed.isImmediate()).isTrue();
		assertThat(shed.immediateStatus()).isEqualTo(429);
		assertThat(shed.immediateHeader("x-infergate-dropped-reason")).isEqualTo("rejected-sheddable");
		assertThat(shed.immediateHeader("retry-after")).isNotBlank();
		assertThat(shed.immediateBody()).contains("\"code\":\"rejected_sheddable\"");

		// an interactive request waits in the queue until the running response ends
		EnvoyDataPlane.Stream waiting = request(Map.of());
		await().atMost(Duration.ofSeconds(10)).until(() -> flowController.report("p").queuedRequests() == 1);
		assertThat(waiting.received).isEmpty();
		running.responseHeaders(200, Map.of("content-type", "application/json"), first.destination(), false);
		running.next();
		running.responseBody(Http.chat("llama", "done", false, 1).getBytes(StandardCharsets.UTF_8), true);
		running.next();
		running.finish();
		RequestAnswer second = waiting.awaitRequestAnswer(false);
		assertThat(second.isImmediate()).isFalse();
		assertThat(waiting.forward(CHAT, second).status()).isEqualTo(200);
	}

	@Test
	void aBadKeyGets401BeforeAnyEndpointIsChosen() throws Exception {
		EnvoyDataPlane.Stream stream = envoy.open()
			.requestHeaders(CHAT, Map.of("authorization", "Bearer sk-wrong-0123456789"), null, false);
		RequestAnswer answer = stream.awaitRequestAnswer(false);
		assertThat(answer.isImmediate()).isTrue();
		assertThat(answer.immediateStatus()).isEqualTo(401);
		assertThat(answer.immediateHeader("www-authenticate")).isEqualTo("Bearer");
		assertThat(answer.immediateBody()).contains("\"code\":\"invalid_api_key\"");
	}

	private EnvoyDataPlane.Stream request(Map<String, String> headers) {
		Map<String, String> all = new java.util.HashMap<>(headers);
		all.put("authorization", "Bearer " + INTERACTIVE);
		return envoy.open()
			.requestHeaders(CHAT, all, null, false)
			.requestBody(Http.chat("llama", "hello", false, 4).getBytes(StandardCharsets.UTF_8), true);
	}
}
