package io.infergate.gateway;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.ResettingProxy;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.gateway.support.Sims;
import io.infergate.routing.circuit.EndpointCircuits;
import io.infergate.routing.endpoint.EndpointId;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Per-endpoint circuit breakers end to end, on simulated pods under round-robin: a pod that answers 500s, or whose
 * connections are reset, opens its circuit, receives nothing while it is open, and gets traffic again once a probe
 * finds it well.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"infergate.circuit-breaker.sliding-window-size=4", "infergate.circuit-breaker.minimum-number-of-calls=4",
				"infergate.circuit-breaker.wait-duration-in-open-state=500ms",
				"infergate.circuit-breaker.permitted-calls-in-half-open-state=1",
				"infergate.circuit-breaker.consecutive-connection-failures=3",
				"infergate.models.llama.pool=p", "infergate.models.llama.target-model=llama",
				"infergate.models.resets.pool=r", "infergate.models.resets.target-model=llama" })
@ActiveProfiles("round-robin")
class CircuitBreakerTests extends SimulatedPods {

	static SimulatedModelServer failing;

	static SimulatedModelServer healthy;

	static ResettingProxy resetting;

	@Autowired
	EndpointCircuits circuits;

	@DynamicPropertySource
	static void pool(DynamicPropertyRegistry registry) {
		failing = sims.start("llama");
		healthy = sims.start("llama");
		registry.add("infergate.pools.p.endpoints", () -> Sims.urls(failing, healthy));
		resetting = new ResettingProxy(sims.start("llama").port());
		registry.add("infergate.pools.r.endpoints", () -> resetting.baseUrl() + "," + healthy.baseUrl());
	}

	@AfterAll
	static void stopProxy() {
		resetting.close();
	}

	@BeforeEach
	void podsAreReady() {
		awaitEveryPoolReady();
	}

	@AfterEach
	void clearFaults() {
		failing.faults().clear();
		resetting.resetGenerations(false);
	}

	private HttpResponse<String> chat() {
		return chat("llama");
	}

	private HttpResponse<String> chat(String model) {
		return Http.postJson(url("/v1/chat/completions"), Http.chat(model, "hi", false, 2));
	}

	private String circuitOf(SimulatedModelServer pod) {
		return circuits.state(EndpointId.parse(Sims.id(pod)));
	}

	private String circuitOf(ResettingProxy proxy) {
		return circuits.state(EndpointId.parse(proxy.baseUrl().substring("http://".length())));
	}

	@Test
	void aPodThatResetsConnectionsOpensItsCircuitReceivesNothingUntilItRecoversThenClosesIt() {
		String proxyId = resetting.baseUrl().substring("http://".length());
		resetting.resetGenerations(true);
		for (int i = 0; i < 12 && !circuitOf(resetting).equals("open"); i++) {
			chat("resets");
		}
		assertThat(circuitOf(resetting)).isEqualTo("open");

		List<String> servedWhileOpen = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			HttpResponse<String> response = chat("resets");
			assertThat(response.statusCode()).isEqualTo(200);
			servedWhileOpen.add(response.headers().firstValue("x-infergate-endpoint").orElseThrow());
		}
		assertThat(servedWhileOpen).containsOnly(Sims.id(healthy));

		resetting.resetGenerations(false);
		await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
			chat("resets");
			return circuitOf(resetting).equals("closed");
		});
		List<String> servedAfter = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			servedAfter.add(chat("resets").headers().firstValue("x-infergate-endpoint").orElseThrow());
		}
		assertThat(servedAfter).contains(proxyId);
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
		assertThat(Http.getAsAdmin(managementUrl("/actuator/inference")).body())
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
