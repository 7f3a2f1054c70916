package io.infergate.sim.http;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.SimulatorConfig;
import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.PerfProfile;
import io.infergate.sim.engine.SchedulingPolicy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The request body's {@code priority} over HTTP, on a simulator with {@code --scheduling-policy priority}. */
class PrioritySchedulingHttpTests {

	/** 5 ms per step, so that a 40-token request holds the only sequence slot for 0.2 s. */
	private static final PerfProfile SLOW_STEPS = new PerfProfile("slow-steps", 5_000, 0, 0);

	private static final Duration PATIENCE = Duration.ofSeconds(20);

	private static SimulatedModelServer server;

	private static SimHttpClient http;

	@BeforeAll
	static void startServer() {
		server = new SimulatedModelServer(SimulatorConfig.builder("test-model")
			.engine(EngineConfig.builder()
				.perfProfile(SLOW_STEPS)
				.maxNumSeqs(1)
				.schedulingPolicy(SchedulingPolicy.PRIORITY)
				.build())
			.build()).start();
		http = new SimHttpClient(server);
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	private static CompletableFuture<HttpResponse<String>> sendAsync(String path, String body, String label,
			Queue<String> finished) {
		return http.client()
			.sendAsync(http.request(path).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
					HttpResponse.BodyHandlers.ofString())
			.thenApply((response) -> {
				finished.add(label);
				return response;
			});
	}

	@Test
	void aLaterHighPriorityRequestFinishesBeforeEarlierQueuedLowPriorityOnes() {
		Queue<String> finished = new ConcurrentLinkedQueue<>();
		List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			String body = "{\"prompt\":\"low " + i + "\",\"max_tokens\":40,\"priority\":10}";
			responses.add(sendAsync("/v1/completions", body, "low", finished));
		}
		await().atMost(PATIENCE).pollInterval(Duration.ofMillis(5))
			.until(() -> http.metric("vllm:num_requests_waiting") == 3);

		String high = Json.MAPPER.writeValueAsString(Map.of("model", "test-model", "max_tokens", 5, "priority", 0,
				"messages", List.of(Map.of("role", "user", "content", "urgent"))));
		responses.add(sendAsync("/v1/chat/completions", high, "high", finished));

		assertThat(responses).allSatisfy((response) -> assertThat(response.join().statusCode()).isEqualTo(200));
		// The low-priority request running when it arrived ends first; the three queued before it end after it.
		assertThat(finished).containsExactly("low", "high", "low", "low", "low");
		assertThat(http.metric("vllm:num_preemptions_total")).isZero();
	}

	@Test
	void anyIntegerPriorityIsAccepted() {
		HttpResponse<String> response = http.post("/v1/completions",
				"{\"prompt\":\"x\",\"max_tokens\":1,\"priority\":-2147483648}");

		assertThat(response.statusCode()).isEqualTo(200);
	}

	@Test
	void aPriorityThatIsNotAnIntegerIs400() {
		for (String priority : List.of("\"high\"", "1.5", "null")) {
			HttpResponse<String> chat = http.post("/v1/chat/completions",
					"{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"max_tokens\":1,\"priority\":" + priority
							+ "}");
			HttpResponse<String> completion = http.post("/v1/completions",
					"{\"prompt\":\"x\",\"max_tokens\":1,\"priority\":" + priority + "}");

			for (HttpResponse<String> response : List.of(chat, completion)) {
				assertThat(response.statusCode()).isEqualTo(400);
				JsonNode error = SimHttpClient.json(response.body()).get("error");
				assertThat(error.get("type").stringValue()).isEqualTo("BadRequestError");
				assertThat(error.get("param").stringValue()).isEqualTo("priority");
				assertThat(error.get("message").stringValue()).isEqualTo("'priority' must be an integer.");
				assertThat(error.get("code").intValue()).isEqualTo(400);
			}
		}
	}
}
