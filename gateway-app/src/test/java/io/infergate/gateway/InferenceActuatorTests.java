package io.infergate.gateway;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.gateway.support.Sims;
import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.engine.PerfProfile;
import io.infergate.sim.metrics.EngineFlavor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Engine metrics scraped from simulators in each engine's format, as {@code /actuator/inference} and the readiness
 * probe show them.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false" })
class InferenceActuatorTests extends SimulatedPods {

	static final JsonMapper json = JsonMapper.builder().build();

	static SimulatedModelServer vllm, sglang, trtllm, stalling;

	@DynamicPropertySource
	static void pools(DynamicPropertyRegistry registry) {
		// ~16 ms a step, so requests stay running long enough to be seen
		vllm = sims.start("m-vllm", EngineFlavor.VLLM, PerfProfile.LLAMA_3_1_8B_A100, (e) -> e.numKvBlocks(1234));
		sglang = sims.start("m-sglang", EngineFlavor.SGLANG, PerfProfile.LLAMA_3_1_8B_A100, (e) -> e.numKvBlocks(2345));
		trtllm = sims.start("m-trtllm", EngineFlavor.TRTLLM, PerfProfile.LLAMA_3_1_8B_A100,
				(e) -> e.numKvBlocks(3456).blockSize(32));
		stalling = sims.start("m-stall");
		registry.add("infergate.pools.v.endpoints", () -> vllm.baseUrl());
		registry.add("infergate.pools.s.engine", () -> "sglang");
		registry.add("infergate.pools.s.endpoints", () -> sglang.baseUrl());
		registry.add("infergate.pools.t.engine", () -> "trtllm-serve");
		registry.add("infergate.pools.t.endpoints", () -> trtllm.baseUrl());
		registry.add("infergate.pools.st.endpoints", () -> stalling.baseUrl());
	}

		private JsonNode inference() {
		HttpResponse<String> response = Http.getAsAdmin(managementUrl("/actuator/inference"));
		assertThat(response.statusCode()).isEqualTo(200);
		return json.readTree(response.body());
	}

	private JsonNode endpointOf(JsonNode report, String pool) {
		for (JsonNode candidate : report.path("pools")) {
			if (candidate.path("name").asString().equals(pool)) {
				return candidate.path("endpoints").get(0);
			}
		}
		throw new AssertionError("no pool " + pool + " in " + report);
	}

	@Test
	void readinessIsUpOnceEveryPoolHasFreshMetrics() {
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			HttpResponse<String> readiness = Http.get(managementUrl("/actuator/health/readiness"));
			assertThat(readiness.statusCode()).isEqualTo(200);
			assertThat(readiness.body()).contains("\"inferencePools\"");
		});
	}

	@Test
	void showsEachEnginesFiguresInTheContractShape() {
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			JsonNode report = inference();
			assertThat(endpointOf(report, "v").path("metrics").path("numGpuBlocks").asInt()).isEqualTo(1234);
			assertThat(endpointOf(report, "s").path("metrics").path("numGpuBlocks").asInt()).isEqualTo(2345);
			assertThat(endpointOf(report, "t").path("metrics").path("numGpuBlocks").asInt()).isEqualTo(3456);
			assertThat(endpointOf(report, "t").path("metrics").path("blockSize").asInt()).isEqualTo(32);
		});
		JsonNode report = inference();
		JsonNode pool = report.path("pools").get(0);
		assertThat(pool.has("name") && pool.has("engine") && pool.has("profile") && pool.has("failureMode")).isTrue();
		JsonNode endpoint = pool.path("endpoints").get(0);
		assertThat(endpoint.path("id").asString()).matches("127\\.0\\.0\\.1:\\d+");
		assertThat(endpoint.path("ready").asBoolean()).isTrue();
		for (String field : List.of("waitingRequests", "runningRequests", "kvCacheUsage", "blockSize", "numGpuBlocks",
				"maxLoras", "runningAdapters", "waitingAdapters", "ageMillis", "stale")) {
			assertThat(endpoint.path("metrics").has(field)).as(field).isTrue();
		}
		assertThat(endpoint.path("inFlight").has("requests") && endpoint.path("inFlight").has("tokens")).isTrue();
		assertThat(report.has("decisions")).isTrue();
		assertThat(report.path("pools").findValuesAsString("engine")).contains("vllm", "sglang", "trtllm-serve");
	}

	@Test
	void reflectsALoadChangeInEveryEngineFormat() throws Exception {
		for (SimulatedModelServer sim : List.of(vllm, sglang, trtllm)) {
			String pool = sim == vllm ? "v" : sim == sglang ? "s" : "t";
			List<CompletableFuture<HttpResponse<InputStream>>> load = startStreams(sim, 3);
			await().atMost(Duration.ofSeconds(10)).until(() -> sim.metrics().numRequestsRunning() == 3);

			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(runningRequests(pool)).as("pool %s under load", pool).isEqualTo(3));
			for (CompletableFuture<HttpResponse<InputStream>> stream : load) {
				stream.join().body().close();
			}
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(runningRequests(pool)).as("pool %s after the load", pool).isZero());
		}
	}

	@Test
	void aPodWhoseMetricsStallTurnsStaleThenFreshAgain() {
		await().atMost(Duration.ofSeconds(30))
			.until(() -> !endpointOf(inference(), "st").path("metrics").path("stale").asBoolean(true));
		stalling.faults().stallMetrics();
		try {
			await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
				JsonNode metrics = endpointOf(inference(), "st").path("metrics");
				assertThat(metrics.path("stale").asBoolean()).isTrue();
				assertThat(metrics.path("ageMillis").asLong()).isGreaterThan(200);
			});
		}
		finally {
			stalling.faults().resumeMetrics();
		}
		await().atMost(Duration.ofSeconds(10))
			.until(() -> !endpointOf(inference(), "st").path("metrics").path("stale").asBoolean(true));
	}

	private static List<CompletableFuture<HttpResponse<InputStream>>> startStreams(SimulatedModelServer sim, int count) {
		List<CompletableFuture<HttpResponse<InputStream>>> streams = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			HttpRequest request = HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/v1/chat/completions"))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(
						Http.chat(sim.config().modelName(), "load " + i, true, 2000)))
				.build();
			streams.add(Http.client().sendAsync(request, HttpResponse.BodyHandlers.ofInputStream()));
		}
		return streams;
	}

	private int runningRequests(String pool) {
		return endpointOf(inference(), pool).path("metrics").path("runningRequests").asInt();
	}
}
