package io.infergate.sim.http;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.SimulatorConfig;
import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.PerfProfile;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** What {@code /metrics} shows while real HTTP load runs through a simulator. */
class EngineMetricsHttpTests {

	/** 20 ms per step, so that requests stay in the engine long enough to be seen. */
	private static final PerfProfile SLOW_STEPS = new PerfProfile("slow-steps", 20_000, 0, 0);

	private static final Duration PATIENCE = Duration.ofSeconds(20);

	private static SimulatedModelServer start(EngineConfig.Builder engine) {
		return new SimulatedModelServer(SimulatorConfig.builder("test-model").engine(engine.build()).build()).start();
	}

	private static List<CompletableFuture<HttpResponse<String>>> sendConcurrently(SimHttpClient http, int count,
			String prompt, int maxTokens) {
		List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			String body = "{\"prompt\":\"" + i + " " + prompt + "\",\"max_tokens\":" + maxTokens + "}";
			responses.add(http.client().sendAsync(http.request("/v1/completions").POST(
					java.net.http.HttpRequest.BodyPublishers.ofString(body)).build(),
					HttpResponse.BodyHandlers.ofString()));
		}
		return responses;
	}

	@Test
	void requestsBeyondMaxNumSeqsAreCountedWaitingAndThenDrain() {
		try (SimulatedModelServer server = start(EngineConfig.builder().perfProfile(SLOW_STEPS).maxNumSeqs(2))) {
			SimHttpClient http = new SimHttpClient(server);

			List<CompletableFuture<HttpResponse<String>>> responses = sendConcurrently(http, 8, "hello", 25);

			await().atMost(PATIENCE).until(() -> http.metric("vllm:num_requests_waiting") > 0);
			assertThat(http.metric("vllm:num_requests_running")).isLessThanOrEqualTo(2);
			await().atMost(PATIENCE).until(() -> http.metric("vllm:num_requests_waiting") == 0
					&& http.metric("vllm:num_requests_running") == 0);
			assertThat(responses).allSatisfy((response) -> assertThat(response.join().statusCode()).isEqualTo(200));
			assertThat(http.metric("vllm:generation_tokens_total")).isEqualTo(8 * 25);
			assertThat(http.metric("vllm:e2e_request_latency_seconds_count")).isEqualTo(8);
		}
	}

	@Test
	void kvUsageRisesWithLongPromptsAndFallsBackWhenTheyEnd() {
		try (SimulatedModelServer server = start(
				EngineConfig.builder().perfProfile(SLOW_STEPS).numKvBlocks(400).blockSize(16))) {
			SimHttpClient http = new SimHttpClient(server);
			assertThat(http.metric("vllm:kv_cache_usage_perc")).isZero();

			// Each prompt is 1,000 tokens: 63 blocks of 400.
			List<CompletableFuture<HttpResponse<String>>> responses = sendConcurrently(http, 4, "abcd".repeat(999), 40);

			await().atMost(PATIENCE).until(() -> http.metric("vllm:kv_cache_usage_perc") >= 0.15);
			responses.forEach(CompletableFuture::join);
			await().atMost(PATIENCE).until(() -> http.metric("vllm:kv_cache_usage_perc") == 0);
		}
	}

	@Test
	void aLongPromptSentTwiceHasALowerTtftTheSecondTimeAndCountsPrefixCacheHits() {
		// Prefill dominates: 200 µs per uncached token, so 2,000 tokens take 0.4 s and a cached prefix saves it.
		PerfProfile prefillHeavy = new PerfProfile("prefill-heavy", 1000, 200, 0);
		try (SimulatedModelServer server = start(EngineConfig.builder().perfProfile(prefillHeavy))) {
			SimHttpClient http = new SimHttpClient(server);
			String body = SimHttpClient.chatBody("test-model", "The same long system prompt. ".repeat(275), 2, true);

			long firstTtftNanos = timeToFirstContentChunk(http, body);
			double hitsBefore = http.metric("vllm:prefix_cache_hits_total");
			long secondTtftNanos = timeToFirstContentChunk(http, body);

			assertThat(secondTtftNanos).isLessThan(firstTtftNanos / 2);
			assertThat(http.metric("vllm:prefix_cache_hits_total") - hitsBefore).isGreaterThanOrEqualTo(1900);
			assertThat(http.metric("vllm:time_to_first_token_seconds_count")).isEqualTo(2);
		}
	}

	private static long timeToFirstContentChunk(SimHttpClient http, String body) {
		long startNanos = System.nanoTime();
		HttpResponse<java.util.stream.Stream<String>> response = http.postForLines("/v1/chat/completions", body);
		long[] firstContentNanos = { -1 };
		response.body().forEach((line) -> {
			if (firstContentNanos[0] < 0 && line.contains("\"content\":\" ")) {
				firstContentNanos[0] = System.nanoTime();
			}
		});
		return firstContentNanos[0] - startNanos;
	}
}
