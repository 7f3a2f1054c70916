package io.infergate.gateway;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.gateway.support.Sims;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointId;
import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.engine.PerfProfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The scheduler behind the gateway, against three simulated pods: load-aware profiles steer around a busy pod,
 * round-robin rotates, and a LoRA request follows the adapter.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				// these tests are about decisions: a scrape made late by a busy test machine must not drop a pod
				"infergate.scheduling.saturation.staleness-threshold=2s",
				"infergate.scheduling.profiles.adapter-aware.filters=ready,lora-affinity",
				"infergate.scheduling.profiles.adapter-aware.scorers.lora-affinity=1",
				"infergate.scheduling.profiles.adapter-aware.picker=max-score" })
class SchedulingIntegrationTests extends SimulatedPods {

	static SimulatedModelServer pod0, pod1, pod2, lora0, lora1, lora2;

	@DynamicPropertySource
	static void pools(DynamicPropertyRegistry registry) {
		// a small batch, so direct traffic queues up on one pod
		pod0 = sims.start("llama", PerfProfile.LLAMA_3_1_8B_A100, (engine) -> engine.maxNumSeqs(4));
		pod1 = sims.start("llama", PerfProfile.LLAMA_3_1_8B_A100, (engine) -> engine.maxNumSeqs(4));
		pod2 = sims.start("llama", PerfProfile.LLAMA_3_1_8B_A100, (engine) -> engine.maxNumSeqs(4));
		for (int i = 0; i < 3; i++) {
			SimulatedModelServer pod = sims.start("base", PerfProfile.LLAMA_3_1_8B_A100,
					(engine) -> engine.loraModules(List.of("sql-lora")).maxLoras(1));
			if (i == 0) {
				lora0 = pod;
			}
			else if (i == 1) {
				lora1 = pod;
			}
			else {
				lora2 = pod;
			}
		}
		registry.add("infergate.pools.loaded.endpoints", () -> Sims.urls(pod0, pod1, pod2));
		registry.add("infergate.pools.loaded.profile", () -> "llm-d");
		registry.add("infergate.pools.rotating.endpoints", () -> Sims.urls(pod0, pod1, pod2));
		registry.add("infergate.pools.rotating.profile", () -> "round-robin");
		registry.add("infergate.pools.lora.endpoints", () -> Sims.urls(lora0, lora1, lora2));
		registry.add("infergate.pools.lora.profile", () -> "adapter-aware");
		registry.add("infergate.models.busy-aware.pool", () -> "loaded");
		registry.add("infergate.models.busy-aware.target-model", () -> "llama");
		registry.add("infergate.models.rotated.pool", () -> "rotating");
		registry.add("infergate.models.rotated.target-model", () -> "llama");
		registry.add("infergate.models.sql.pool", () -> "lora");
		registry.add("infergate.models.sql.target-model", () -> "base");
		registry.add("infergate.models.sql.adapter", () -> "sql-lora");
	}

	@BeforeEach
	void everyEndpointIsReady() {
		awaitEveryPoolReady();
	}

	private String chat(String model) {
		HttpResponse<String> response = Http.postJson(url("/v1/chat/completions"),
				Http.chat(model, "a short question", false, 2));
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return response.headers().firstValue("x-infergate-endpoint").orElseThrow();
	}

	@Test
	void theLlmDProfileSendsNothingToAPodWhoseQueueDirectTrafficFilled() throws Exception {
		List<CompletableFuture<HttpResponse<InputStream>>> direct = streams(pod1, "llama", 12);
		try {
			Endpoint busy = endpoints.pool("loaded").endpoint(EndpointId.parse(Sims.id(pod1)));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> busy.snapshot() != null && busy.snapshot().metrics().waitingRequests() >= 4);

			List<String> picks = new ArrayList<>();
			for (int i = 0; i < 12; i++) {
				picks.add(chat("busy-aware"));
			}

			assertThat(picks).doesNotContain(Sims.id(pod1)).contains(Sims.id(pod0), Sims.id(pod2));
		}
		finally {
			close(direct);
		}
	}

	@Test
	void roundRobinRotatesOverEveryPod() {
		List<String> picks = new ArrayList<>();
		for (int i = 0; i < 9; i++) {
			picks.add(chat("rotated"));
		}

		Map<String, Integer> counts = new LinkedHashMap<>();
		picks.forEach((pick) -> counts.merge(pick, 1, Integer::sum));
		assertThat(counts).containsOnlyKeys(Sims.id(pod0), Sims.id(pod1), Sims.id(pod2));
		assertThat(counts.values()).containsOnly(3);
		for (int i = 3; i < 9; i++) {
			assertThat(picks.get(i)).isEqualTo(picks.get(i - 3));
		}
	}

	@Test
	void aLoraRequestGoesToThePodRunningItsAdapter() throws Exception {
		// lora2 runs the adapter for a long direct request; the others have a free slot
		List<CompletableFuture<HttpResponse<InputStream>>> direct = streams(lora2, "sql-lora", 1);
		try {
			Endpoint running = endpoints.pool("lora").endpoint(EndpointId.parse(Sims.id(lora2)));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> running.snapshot() != null
						&& running.snapshot().metrics().runningAdapters().contains("sql-lora"));

			for (int i = 0; i < 5; i++) {
				assertThat(chat("sql")).isEqualTo(Sims.id(lora2));
			}
		}
		finally {
			close(direct);
		}
	}

	private static List<CompletableFuture<HttpResponse<InputStream>>> streams(SimulatedModelServer pod, String model,
			int count) {
		List<CompletableFuture<HttpResponse<InputStream>>> streams = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			HttpRequest request = HttpRequest.newBuilder(URI.create(pod.baseUrl() + "/v1/chat/completions"))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(Http.chat(model, "direct " + i, true, 3000)))
				.build();
			streams.add(Http.client().sendAsync(request, HttpResponse.BodyHandlers.ofInputStream()));
		}
		return streams;
	}

	private static void close(List<CompletableFuture<HttpResponse<InputStream>>> streams) throws Exception {
		for (CompletableFuture<HttpResponse<InputStream>> stream : streams) {
			stream.get().body().close();
		}
	}
}
