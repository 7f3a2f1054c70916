package io.infergate.sim.http;

import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.SimulatorConfig;
import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.PerfProfile;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class StreamingHttpTests {

	@Test
	void theFirstChunkArrivesLongBeforeTheStreamEnds() {
		// 50 ms per step at time scale 1: 20 tokens take at least a second.
		PerfProfile slowSteps = new PerfProfile("slow-steps", 50_000, 0, 0);
		try (SimulatedModelServer server = new SimulatedModelServer(SimulatorConfig.builder("test-model")
			.engine(EngineConfig.builder().perfProfile(slowSteps).build())
			.build()).start()) {
			SimHttpClient http = new SimHttpClient(server);

			HttpResponse<Stream<String>> response = http.postForLines("/v1/chat/completions",
					SimHttpClient.chatBody("test-model", "hi", 20, true));
			Iterator<String> lines = response.body().iterator();
			long firstContentNanos = 0;
			String last = null;
			while (lines.hasNext()) {
				String line = lines.next();
				if (firstContentNanos == 0 && line.contains("\"content\":\" ")) {
					firstContentNanos = System.nanoTime();
				}
				if (!line.isEmpty()) {
					last = line;
				}
			}
			long endNanos = System.nanoTime();

			assertThat(last).isEqualTo("data: [DONE]");
			// 19 more steps of 50 ms follow the first token.
			assertThat(TimeUnit.NANOSECONDS.toMillis(endNanos - firstContentNanos)).isGreaterThanOrEqualTo(900);
		}
	}

	@Test
	void aClientThatDisconnectsMidStreamHasItsRequestAborted() throws Exception {
		// 50 ms per step: 200 tokens would take 10 s.
		PerfProfile slowSteps = new PerfProfile("slow-steps", 50_000, 0, 0);
		try (SimulatedModelServer server = new SimulatedModelServer(SimulatorConfig.builder("test-model")
			.engine(EngineConfig.builder().perfProfile(slowSteps).build())
			.build()).start()) {
			SimHttpClient http = new SimHttpClient(server);
			HttpResponse<InputStream> response = http.client().send(http.request("/v1/chat/completions")
				.POST(HttpRequest.BodyPublishers.ofString(SimHttpClient.chatBody("test-model", "hi", 200, true)))
				.build(), HttpResponse.BodyHandlers.ofInputStream());
			try (InputStream body = response.body()) {
				assertThat(body.read()).isNotNegative();
				assertThat(server.metrics().numRequestsRunning()).isEqualTo(1);
			}

			await().atMost(Duration.ofSeconds(8)).until(() -> server.metrics().numRequestsRunning() == 0);
			assertThat(server.metrics().finishedRequests()).isZero();
			assertThat(server.metrics().kvCacheUsage()).isZero();
		}
	}

	@Test
	void twoHundredFiftyConcurrentStreamsAllComplete() {
		PerfProfile steps = new PerfProfile("steps", 20_000, 0, 0);
		try (SimulatedModelServer server = new SimulatedModelServer(SimulatorConfig.builder("test-model")
			.engine(EngineConfig.builder().perfProfile(steps).maxNumSeqs(256).build())
			.build()).start()) {
			SimHttpClient http = new SimHttpClient(server);
			String body = SimHttpClient.chatBody("test-model", "hello", 100, true);

			List<CompletableFuture<HttpResponse<String>>> streams = new ArrayList<>();
			for (int i = 0; i < 250; i++) {
				streams.add(http.client().sendAsync(http.request("/v1/chat/completions")
					.POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString()));
			}

			await().atMost(Duration.ofSeconds(30)).until(() -> http.metric("vllm:num_requests_running") >= 200);
			assertThat(streams).allSatisfy((stream) -> assertThat(stream).succeedsWithin(Duration.ofSeconds(60))
				.satisfies((response) -> {
					assertThat(response.statusCode()).isEqualTo(200);
					assertThat(response.body()).endsWith("data: [DONE]\n\n");
				}));
		}
	}
}
