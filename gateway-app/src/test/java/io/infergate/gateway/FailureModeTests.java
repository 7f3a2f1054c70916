package io.infergate.gateway;

import java.net.http.HttpResponse;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.gateway.support.Sims;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.SchedulingCycle;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pool's failure mode when its scheduling profile throws, and the Spring profile that switches the default
 * scheduling profile.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"infergate.scheduling.profiles.broken.scorers.exploding=1",
				"infergate.scheduling.profiles.broken.picker=max-score" })
@ActiveProfiles("least-request")
class FailureModeTests extends SimulatedPods {

	static SimulatedModelServer pod;

	@DynamicPropertySource
	static void pools(DynamicPropertyRegistry registry) {
		pod = sims.start("llama");
		registry.add("infergate.pools.open.endpoints", () -> pod.baseUrl());
		registry.add("infergate.pools.open.profile", () -> "broken");
		registry.add("infergate.pools.open.failure-mode", () -> "fail-open");
		registry.add("infergate.pools.closed.endpoints", () -> pod.baseUrl());
		registry.add("infergate.pools.closed.profile", () -> "broken");
		registry.add("infergate.pools.plain.endpoints", () -> pod.baseUrl());
		registry.add("infergate.models.open-model.pool", () -> "open");
		registry.add("infergate.models.open-model.target-model", () -> "llama");
		registry.add("infergate.models.closed-model.pool", () -> "closed");
		registry.add("infergate.models.closed-model.target-model", () -> "llama");
	}

	@BeforeEach
	void everyEndpointIsReady() {
		awaitEveryPoolReady();
	}

	private HttpResponse<String> chat(String model) {
		return Http.postJson(url("/v1/chat/completions"), Http.chat(model, "hi", false, 2));
	}

	@Test
	void failOpenSendsTheRequestToAReadyEndpointWhenSchedulingThrows() {
		HttpResponse<String> response = chat("open-model");

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("x-infergate-endpoint")).hasValue(Sims.id(pod));
		assertThat(inference()).contains("\"outcome\":\"error\"");
	}

	@Test
	void failCloseAnswers503WhenSchedulingThrows() {
		HttpResponse<String> response = chat("closed-model");

		assertThat(response.statusCode()).isEqualTo(503);
		assertThat(response.body()).contains("\"type\":\"service_unavailable\"").contains("scheduling failed");
	}

	@Test
	void theActiveSpringProfileSwitchesTheDefaultSchedulingProfile() {
		assertThat(inference()).contains("\"name\":\"plain\",\"engine\":\"vllm\",\"profile\":\"least-request\"")
			.contains("\"name\":\"open\",\"engine\":\"vllm\",\"profile\":\"broken\"");
	}

	private String inference() {
		return Http.getAsAdmin(managementUrl("/actuator/inference")).body();
	}

	@TestConfiguration
	static class ExplodingScorer {

		@Bean
		EndpointScorer exploding() {
			return new EndpointScorer() {
				@Override
				public String name() {
					return "exploding";
				}

				@Override
				public void score(SchedulingCycle cycle, List<Endpoint> candidates, double[] scores) {
					throw new IllegalStateException("this scorer always fails");
				}
			};
		}
	}
}
