package io.infergate.gateway;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.support.RouteMetadataUtils;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.route.InferenceRoute;
import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.gateway.support.Sims;
import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.engine.PerfProfile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The response-header timeout bounds how long a model server may take to start answering; it never cuts a stream
 * that has started. The connection times it ({@code UpstreamResponseTimeout}); Spring Cloud Gateway's own timer is
 * off for the inference route.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"spring.cloud.gateway.server.webflux.httpclient.response-timeout=800ms" })
@ExtendWith(OutputCaptureExtension.class)
class GatewayTimeoutTests extends SimulatedPods {

	static SimulatedModelServer slow;

	@Autowired
	RouteLocator routes;

	@DynamicPropertySource
	static void pools(DynamicPropertyRegistry registry) {
		// about 16 ms a token: 150 tokens take over 2 s
		slow = sims.start("slow", PerfProfile.LLAMA_3_1_8B_A100, (engine) -> {
		});
		registry.add("infergate.pools.p.endpoints", () -> slow.baseUrl());
	}

	@BeforeEach
	void ready() {
		awaitReady("p");
	}

	private HttpResponse<String> chat(boolean stream) {
		return Http.send(HttpRequest.newBuilder(URI.create(url("/v1/chat/completions")))
			.header("Content-Type", "application/json")
			.timeout(Duration.ofSeconds(60))
			.POST(HttpRequest.BodyPublishers.ofString(Http.chat("slow", "take your time", stream, 150)))
			.build());
	}

	@Test
	void aServerThatDoesNotStartAnsweringInTimeIs504(CapturedOutput output) {
		// a non-streaming answer has no headers until the whole completion is ready
		HttpResponse<String> response = chat(false);

		assertThat(response.statusCode()).isEqualTo(504);
		assertThat(response.body()).contains("\"type\":\"timeout\"").contains("upstream_timeout");
		// the retry and the 504 are Infergate's own summarised lines; no exception from the HTTP client
		assertThat(output).doesNotContain("ResponseStatusException").doesNotContain("connection observed an error");
	}

	@Test
	void springCloudGatewaysOwnResponseTimerIsOffForTheInferenceRoute() {
		Route route = routes.getRoutes()
			.filter((candidate) -> candidate.getId().equals(InferenceRoute.ID))
			.blockFirst(Duration.ofSeconds(5));

		assertThat(route).isNotNull();
		assertThat(route.getMetadata()).containsEntry(RouteMetadataUtils.RESPONSE_TIMEOUT_ATTR, -1);
	}

	@Test
	void aStreamLongerThanTheTimeoutIsNotCut() {
		long start = System.nanoTime();
		HttpResponse<String> response = chat(true);
		Duration took = Duration.ofNanos(System.nanoTime() - start);

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).endsWith("data: [DONE]\n\n");
		assertThat(took).isGreaterThan(Duration.ofMillis(800));
	}
}
