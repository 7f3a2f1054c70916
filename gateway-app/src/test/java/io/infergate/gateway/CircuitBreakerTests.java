package io.infergate.gateway;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPodsTest;
import io.infergate.gateway.support.Sims;
import io.infergate.routing.circuit.EndpointCircuits;
import io.infergate.routing.endpoint.EndpointId;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Per-endpoint circuit breakers end to end, on two simulated pods under round-robin: a pod that answers 500s opens
 * its circuit, receives nothing while it is open, and gets traffic again once a probe finds it well.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"infergate.circuit-breaker.sliding-window-size=4", "infergate.circuit-breaker.minimum-number-of-calls=4",
				"infergate.circuit-breaker.wait-duration-in-open-state=500ms",
				"infergate.circuit-breaker.permitted-calls-in-half-open-state=1" })
@ActiveProfiles("round-robin")
class CircuitBreakerTests extends SimulatedPodsTest {

	static SimulatedModelServer failing;

	static SimulatedModelServer healthy;

	@Autowired
	EndpointCircuits circuits;

	@DynamicPropertySource
	static void pool(DynamicPropertyRegistry registry) {
		failing = sims.start("llama");
		healthy = sims.start("llama");
		registry.add("infergate.pools.p.endpoints", () -> Sims.urls(failing, healthy));
	}

	@BeforeEach
	void podsAreReady() {
		awaitReady("p");
	}

	@AfterEach
	void clearFaults() {
		failing.faults().clear();
	}

	private HttpResponse<String> chat() {
		return Http.postJson(url("/v1/chat/completions"), Http.chat("llama", "hi", false, 2));
	}

	private String circuitOf(SimulatedModelServer pod) {
		return circuits.state(EndpointId.parse(Sims.id(pod)));
	}

	@Test
	void aPodAnswering500sOpensItsCircuitReceivesNothingUntilItRecoversThenClosesIt() {
		failing.faults().failNextGenerations(1_000, 500);
		List<Integer> statuses = new ArrayList<>();
		for (int i = 0; i < 12 && !circuitOf(failing).equals("open"); i++) {
			statuses.add(chat().statusCode());
		}
		assertThat(circuitOf(failing)).isEqualTo("open");
		assertThat(statuses).contains(500);
		assertThat(Http.get(managementUrl("/actuator/inference")).body())
			.contains("\"id\":\"" + Sims.id(failing) + "\"")
			.contains("\"circuit\":\"open\"");

		List<String> servedWhileOpen = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			HttpResponse<String> response = chat();
			assertThat(response.statusCode()).isEqualTo(200);
			servedWhileOpen.add(response.headers().firstValue("x-infergate-endpoint").orElseThrow());
		}
		assertThat(servedWhileOpen).containsOnly(Sims.id(healthy));

		failing.faults().clear();
		await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
			chat();
			return circuitOf(failing).equals("closed");
		});

		List<String> servedAfter = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			servedAfter.add(chat().headers().firstValue("x-infergate-endpoint").orElseThrow());
		}
		assertThat(servedAfter).contains(Sims.id(failing));
	}
}
