package io.infergate.gateway;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.gateway.support.Sims;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A pod that fails before the first response byte (resets the connection, or freezes) costs the client nothing: the
 * request moves to the other pod. A stream that goes silent ends with an error event. Nothing stays in flight.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"infergate.scheduling.default-profile=round-robin",
				"infergate.pools.p.timeouts.first-byte=1s", "infergate.pools.p.timeouts.stream-idle=1s",
				// keep a failing pod in rotation, so its requests must be retried
				"infergate.pools.p.scrape.unready-after-failures=100000" })
class UpstreamFaultsTests extends SimulatedPods {

	static SimulatedModelServer bad;

	static SimulatedModelServer good;

	@DynamicPropertySource
	static void pools(DynamicPropertyRegistry registry) {
		bad = sims.start("llama");
		good = sims.start("llama");
		registry.add("infergate.pools.p.endpoints", () -> Sims.urls(bad, good));
	}

	@BeforeEach
	void ready() {
		awaitReady("p");
	}

	@AfterEach
	void clearFaults() {
		bad.faults().clear();
		good.faults().clear();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> endpoints.pool("p").endpoints().stream().allMatch((e) -> e.inFlightRequests() == 0));
	}

	private HttpResponse<String> chat(boolean stream) {
		return Http.send(HttpRequest.newBuilder(URI.create(url("/v1/chat/completions")))
			.header("Content-Type", "application/json")
			.timeout(Duration.ofSeconds(30))
			.POST(HttpRequest.BodyPublishers.ofString(Http.chat("llama", "hello", stream, 8)))
			.build());
	}

	@Test
	void aPodResettingConnectionsBeforeAnsweringHasItsRequestsRetriedOnAnother() {
		bad.faults().resetConnections(true);

		for (int i = 0; i < 4; i++) {
			HttpResponse<String> response = chat(i % 2 == 0);

			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.headers().firstValue("x-infergate-endpoint")).hasValue(Sims.id(good));
		}
	}

	@Test
	void aFrozenPodIsLeftAfterTheFirstByteTimeoutAndItsRequestsRetriedOnAnother() {
		bad.faults().freezeGenerations(true);

		for (int i = 0; i < 2; i++) {
			HttpResponse<String> response = chat(false);

			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.headers().firstValue("x-infergate-endpoint")).hasValue(Sims.id(good));
		}
	}

	@Test
	void whenEveryPodFreezesTheClientGets504() {
		bad.faults().freezeGenerations(true);
		good.faults().freezeGenerations(true);

		HttpResponse<String> response = chat(false);

		assertThat(response.statusCode()).isEqualTo(504);
		assertThat(response.body()).startsWith("{\"error\":").contains("upstream_timeout");
	}

	@Test
	void aStreamThatGoesSilentEndsWithAnErrorEvent() {
		bad.faults().stallStreamsAfterChunks(2);
		good.faults().stallStreamsAfterChunks(2);

		HttpResponse<String> response = chat(true);

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("data: {\"error\":{").contains("upstream_stream_timeout");
		assertThat(response.body()).doesNotContain("[DONE]");
	}
}
