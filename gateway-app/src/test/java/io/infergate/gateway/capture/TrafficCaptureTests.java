package io.infergate.gateway.capture;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import org.springframework.context.ConfigurableApplicationContext;

import io.infergate.gateway.support.GatewayContexts;
import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.Sims;
import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.engine.PerfProfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Traffic capture through a running gateway: every inference request, served, rejected or cancelled, streamed or
 * not, is one complete record in the capture files once the gateway has stopped.
 */
class TrafficCaptureTests {

	static final Sims sims = new Sims();

	@TempDir
	Path directory;

	@AfterAll
	static void stopSims() {
		sims.close();
	}

	/** Reads a stream's first event, then closes the connection. */
	private static void cancelAfterTheFirstEvent(String url, String body) throws IOException {
		HttpResponse<InputStream> response = Http.client()
			.sendAsync(HttpRequest.newBuilder(URI.create(url))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(body))
				.build(), HttpResponse.BodyHandlers.ofInputStream())
			.join();
		try (BufferedReader events = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
			assertThat(events.readLine()).startsWith("data: ");
		}
	}

	@Test
	void everyRequestIsOneCompleteRecordOnceTheGatewayStops() throws IOException {
		SimulatedModelServer pod = sims.start("llama");
		SimulatedModelServer slow = sims.start("llama-slow", PerfProfile.LLAMA_3_1_8B_A100, (engine) -> {
		});
		long before = System.currentTimeMillis();
		ConfigurableApplicationContext gateway = GatewayContexts.start("--infergate.pools.llama.endpoints=" + pod.baseUrl(),
				"--infergate.pools.slow.endpoints=" + slow.baseUrl(),
				"--infergate.models.llama.pool=llama", "--infergate.models.llama.target-model=llama",
				"--infergate.capture.enabled=true", "--infergate.capture.directory=" + directory);
		String prompt = "The quick brown fox jumps over the lazy dog. ".repeat(10);
		assertThat(Http.postJson(GatewayContexts.url(gateway, "/v1/chat/completions"), Http.chat("llama", prompt, false, 6))
			.statusCode()).isEqualTo(200);
		assertThat(Http.postJson(GatewayContexts.url(gateway, "/v1/chat/completions"), Http.chat("llama", prompt, true, 5))
			.statusCode()).isEqualTo(200);
		assertThat(Http.postJson(GatewayContexts.url(gateway, "/v1/chat/completions"),
				Http.chat("no-such-model", prompt, false, 2))
			.statusCode()).isEqualTo(404);
		cancelAfterTheFirstEvent(GatewayContexts.url(gateway, "/v1/chat/completions"),
				Http.chat("llama-slow", prompt, true, 2000));
		await().until(() -> gateway.getBean(MeterRegistry.class)
			.get(TrafficCapture.RECORDS)
			.tag("outcome", "written")
			.counter()
			.count() == 4);
		gateway.close();

		List<JsonNode> records = CaptureFilesReader.records(directory);
		assertThat(records).hasSize(4);
		JsonNode cancelled = records.stream()
			.filter((record) -> record.get("model").asString().equals("llama-slow"))
			.findFirst()
			.orElseThrow();
		assertThat(cancelled.get("outputTokens").isNull()).as("the usage never came").isTrue();
		assertThat(cancelled.get("durationMs").asDouble()).as("long before 2,000 tokens").isLessThan(10_000);
		assertThat(cancelled.get("stream").asBoolean()).isTrue();
		assertThat(cancelled.get("maxTokens").asInt()).isEqualTo(2000);
		assertThat(cancelled.get("ttftMs").asDouble()).isPositive();
		assertThat(cancelled.get("endpoint").asString()).isEqualTo(Sims.id(slow));
		records = records.stream().filter((record) -> record != cancelled).toList();
		Map<String, JsonNode> byModelAndStream = records.stream()
			.collect(Collectors.toMap((r) -> r.get("model").asString() + "/" + r.get("stream").asBoolean(),
					Function.identity()));
		JsonNode plain = byModelAndStream.get("llama/false");
		JsonNode streamed = byModelAndStream.get("llama/true");
		JsonNode rejected = byModelAndStream.get("no-such-model/false");
		for (JsonNode served : List.of(plain, streamed)) {
			assertThat(served.get("v").asInt()).isEqualTo(1);
			assertThat(served.get("arrivalMs").asLong()).isBetween(before - 1000, System.currentTimeMillis());
			assertThat(served.get("path").asString()).isEqualTo("/v1/chat/completions");
			assertThat(served.get("pool").asString()).isEqualTo("llama");
			assertThat(served.get("adapter").isNull()).isTrue();
			assertThat(served.get("tenant").asString()).matches("[0-9a-f]{16}");
			assertThat(served.get("priority").isInt()).isTrue();
			assertThat(served.get("promptTokens").asInt()).isGreaterThanOrEqualTo(prompt.length() / 4);
			assertThat(served.get("promptTokensExact").asBoolean()).isFalse();
			assertThat(served.get("blockSizeChars").asInt()).isEqualTo(64);
			assertThat(served.get("blocks")).hasSizeGreaterThanOrEqualTo(prompt.length() / 64);
			assertThat(served.get("status").asInt()).isEqualTo(200);
			assertThat(served.get("completed").asBoolean()).isTrue();
			assertThat(served.get("ttftMs").asDouble()).isPositive();
			assertThat(served.get("durationMs").asDouble()).isGreaterThanOrEqualTo(served.get("ttftMs").asDouble());
			assertThat(served.get("endpoint").asString()).isEqualTo(Sims.id(pod));
		}
		assertThat(plain.get("maxTokens").asInt()).isEqualTo(6);
		assertThat(plain.get("outputTokens").asInt()).isEqualTo(6);
		assertThat(streamed.get("maxTokens").asInt()).isEqualTo(5);
		assertThat(streamed.get("outputTokens").asInt()).isEqualTo(5);
		assertThat(streamed.get("blocks")).as("one prompt, one model: one chain").isEqualTo(plain.get("blocks"));
		assertThat(rejected.get("status").asInt()).isEqualTo(404);
		assertThat(rejected.get("pool").isNull()).isTrue();
		assertThat(rejected.get("endpoint").isNull()).isTrue();
		assertThat(rejected.get("ttftMs").isNull()).isTrue();
		assertThat(rejected.get("outputTokens").isNull()).isTrue();
	}
}
