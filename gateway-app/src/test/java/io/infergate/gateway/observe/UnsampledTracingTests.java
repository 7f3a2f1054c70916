package io.infergate.gateway.observe;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An unsampled request: its proxied call is not observed (no client span, no {@code http.client.requests} timer),
 * and the model server still receives the request's trace context, flagged unsampled.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"management.tracing.sampling.probability=0.0", "infergate.models.llama.pool=llama",
				"infergate.models.llama.target-model=llama" })
class UnsampledTracingTests extends SimulatedPods {

	static SimulatedModelServer pod;

	@DynamicPropertySource
	static void pool(DynamicPropertyRegistry registry) {
		pod = sims.start("llama");
		registry.add("infergate.pools.llama.endpoints", pod::baseUrl);
	}

	@BeforeEach
	void ready() {
		awaitEveryPoolReady();
	}

	@Test
	void theModelServerReceivesTheRequestsTraceContextFlaggedUnsampled() {
		for (int i = 0; i < 2; i++) {
			assertThat(Http.postJson(url("/v1/chat/completions"), Http.chat("llama", "hi " + i, false, 2)).statusCode())
				.isEqualTo(200);
		}

		assertThat(pod.receivedTraceparents()).hasSizeGreaterThanOrEqualTo(2)
			.allSatisfy((traceparent) -> assertThat(traceparent).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-00"));
		assertThat(pod.receivedTraceparents().get(pod.receivedTraceparents().size() - 1))
			.isNotEqualTo(pod.receivedTraceparents().get(pod.receivedTraceparents().size() - 2));
	}

	@Test
	void theProxiedCallOfAnUnsampledRequestIsNotObserved() {
		assertThat(Http.postJson(url("/v1/chat/completions"), Http.chat("llama", "hi", false, 2)).statusCode())
			.isEqualTo(200);

		String scrape = Http.getAsAdmin(managementUrl("/actuator/prometheus")).body();
		assertThat(scrape).contains("http_server_requests_seconds_count{")
			.doesNotContain("http_client_requests_seconds_count{")
			.as("Spring Cloud Gateway's own request timer is off").doesNotContain("spring_cloud_gateway_requests")
			.as("no long-task timer per request").doesNotContain("http_server_requests_active");
	}
}
