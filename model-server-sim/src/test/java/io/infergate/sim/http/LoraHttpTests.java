package io.infergate.sim.http;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.SimulatorConfig;
import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.PerfProfile;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class LoraHttpTests {

	@Test
	void aLoadedAdapterWithRunningRequestsAppearsInRunningLoraAdapters() {
		PerfProfile slowSteps = new PerfProfile("slow-steps", 20_000, 0, 0);
		try (SimulatedModelServer server = new SimulatedModelServer(SimulatorConfig.builder("test-model")
			.engine(EngineConfig.builder()
				.perfProfile(slowSteps)
				.loraModules(List.of("support-lora", "sql-lora"))
				.maxLoras(1)
				.loraLoadDelayMillis(50)
				.build())
			.build()).start()) {
			SimHttpClient http = new SimHttpClient(server);
			assertThat(http.metricLabel("vllm:lora_requests_info", "max_lora")).isEqualTo("1");
			assertThat(http.metricLabel("vllm:lora_requests_info", "running_lora_adapters")).isEmpty();

			CompletableFuture<HttpResponse<String>> support = send(http, "support-lora");
			await().atMost(Duration.ofSeconds(20))
				.until(() -> http.metricLabel("vllm:lora_requests_info", "running_lora_adapters").equals("support-lora"));
			CompletableFuture<HttpResponse<String>> sql = send(http, "sql-lora");
			await().atMost(Duration.ofSeconds(20))
				.until(() -> http.metricLabel("vllm:lora_requests_info", "waiting_lora_adapters").equals("sql-lora"));

			assertThat(support.join().statusCode()).isEqualTo(200);
			assertThat(sql.join().statusCode()).isEqualTo(200);
			await().atMost(Duration.ofSeconds(20))
				.until(() -> http.metricLabel("vllm:lora_requests_info", "running_lora_adapters").isEmpty());
		}
	}

	@Test
	void anUnknownAdapterIs404() {
		try (SimulatedModelServer server = new SimulatedModelServer(SimulatorConfig.builder("test-model")
			.engine(EngineConfig.builder().perfProfile(PerfProfile.ZERO).loraModules(List.of("support-lora")).build())
			.build()).start()) {
			SimHttpClient http = new SimHttpClient(server);

			HttpResponse<String> response = http.post("/v1/chat/completions",
					SimHttpClient.chatBody("billing-lora", "hi", 1, false));

			assertThat(response.statusCode()).isEqualTo(404);
			assertThat(response.body()).contains("The model `billing-lora` does not exist.");
		}
	}

	private static CompletableFuture<HttpResponse<String>> send(SimHttpClient http, String adapter) {
		return http.client().sendAsync(http.request("/v1/chat/completions")
			.POST(HttpRequest.BodyPublishers.ofString(SimHttpClient.chatBody(adapter, "hi", 40, false)))
			.build(), HttpResponse.BodyHandlers.ofString());
	}
}
