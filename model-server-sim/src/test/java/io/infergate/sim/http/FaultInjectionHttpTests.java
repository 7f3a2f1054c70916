package io.infergate.sim.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

class FaultInjectionHttpTests {

	private static SimulatedModelServer server;

	private static SimHttpClient http;

	@BeforeAll
	static void startServer() {
		server = new SimulatedModelServer(SimulatorConfig.builder("test-model")
			.engine(EngineConfig.builder().perfProfile(PerfProfile.ZERO).build())
			.build()).start();
		http = new SimHttpClient(server);
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	@AfterEach
	void clearFaults() {
		server.faults().clear();
	}

	@Test
	void aStalledMetricsScrapeIsHeldUntilTheFaultIsCleared() {
		server.faults().stallMetrics();
		CompletableFuture<HttpResponse<String>> scrape = http.client()
			.sendAsync(http.request("/metrics").GET().build(), HttpResponse.BodyHandlers.ofString());

		assertThat(scrape).as("still held").isNotCompleted();
		await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> !scrape.isDone());

		assertThat(http.delete("/sim/faults").statusCode()).isEqualTo(200);
		assertThat(scrape).succeedsWithin(Duration.ofSeconds(10))
			.satisfies((response) -> assertThat(response.statusCode()).isEqualTo(200));
	}

	@Test
	void aTimedMetricsStallHoldsEachScrapeForItsDuration() {
		assertThat(http.post("/sim/faults", "{\"stallMetricsMillis\":400}").statusCode()).isEqualTo(200);

		long startNanos = System.nanoTime();
		HttpResponse<String> response = http.get("/metrics");

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos)).isGreaterThanOrEqualTo(400);
	}

	@Test
	void theNextRequestsFailWithTheGivenStatusBeforeAnyByteThenServiceResumes() {
		assertThat(http.post("/sim/faults", "{\"failNextRequests\":2,\"failStatus\":503}").body())
			.contains("\"failNextRequests\":2");
		String body = SimHttpClient.chatBody("test-model", "hi", 3, true);

		HttpResponse<String> first = http.post("/v1/chat/completions", body);
		HttpResponse<String> second = http.post("/v1/chat/completions", body);
		HttpResponse<String> third = http.post("/v1/chat/completions", body);

		assertThat(first.statusCode()).isEqualTo(503);
		assertThat(first.body()).doesNotContain("data:");
		assertThat(SimHttpClient.json(first.body()).get("error").get("code").intValue()).isEqualTo(503);
		assertThat(second.statusCode()).isEqualTo(503);
		assertThat(third.statusCode()).isEqualTo(200);
		assertThat(third.body()).endsWith("data: [DONE]\n\n");
	}

	@Test
	void theEmbeddedApiInjectsA502() {
		server.faults().failNextGenerations(1, 502);

		assertThat(http.post("/v1/completions", "{\"prompt\":\"x\"}").statusCode()).isEqualTo(502);
		assertThat(http.post("/v1/completions", "{\"prompt\":\"x\"}").statusCode()).isEqualTo(200);
	}

	@Test
	void anAbortedStreamIsCutAfterTheGivenChunksWithoutDone() {
		http.post("/sim/faults", "{\"abortStreamsAfterChunks\":2}");
		HttpResponse<Stream<String>> response = http.postForLines("/v1/chat/completions",
				SimHttpClient.chatBody("test-model", "hi", 10, true));
		assertThat(response.statusCode()).isEqualTo(200);

		List<String> events = new ArrayList<>();
		boolean cut = false;
		try {
			Iterator<String> lines = response.body().iterator();
			while (lines.hasNext()) {
				String line = lines.next();
				if (!line.isEmpty()) {
					events.add(line);
				}
			}
		}
		catch (UncheckedIOException ex) {
			cut = ex.getCause() instanceof IOException;
		}

		assertThat(cut).as("the connection closed mid-body").isTrue();
		assertThat(events).noneMatch((line) -> line.contains("[DONE]"));
		assertThat(events).filteredOn((line) -> line.contains("\"content\":\" ")).hasSize(2);
	}

	@Test
	void aGenerationDelayHoldsEachRequestBeforeItsFirstToken() {
		assertThat(http.post("/sim/faults", "{\"generationDelayMillis\":300}").body())
			.contains("\"generationDelayMillis\":300");

		long startNanos = System.nanoTime();
		HttpResponse<String> response = http.post("/v1/chat/completions", SimHttpClient.chatBody("test-model", "hi", 2, false));

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos)).isGreaterThanOrEqualTo(300);
	}

	@Test
	void generationRequestsRecordTheTraceparentTheyArriveWith() {
		String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

		http.send(http.request("/v1/chat/completions")
			.header("traceparent", traceparent)
			.POST(HttpRequest.BodyPublishers.ofString(SimHttpClient.chatBody("test-model", "hi", 1, false)))
			.build(), HttpResponse.BodyHandlers.ofString());

		assertThat(server.receivedTraceparents()).endsWith(traceparent);
	}

	@Test
	void unknownFaultFieldsAre400() {
		assertThat(http.post("/sim/faults", "{\"explode\":true}").statusCode()).isEqualTo(400);
	}

	@Test
	void resetConnectionsResetsEachRequestBeforeAnyByte() throws Exception {
		http.post("/sim/faults", "{\"resetConnections\":true}");
		String body = SimHttpClient.chatBody("test-model", "hi", 3, false);

		try (Socket socket = new Socket("127.0.0.1", URI.create(server.baseUrl()).getPort())) {
			socket.getOutputStream().write(("POST /v1/chat/completions HTTP/1.1\r\nHost: sim\r\nContent-Type: "
					+ "application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body)
				.getBytes(StandardCharsets.UTF_8));
			assertThatExceptionOfType(SocketException.class)
				.isThrownBy(() -> socket.getInputStream().read())
				.withMessageContaining("reset");
		}
		server.faults().clear();
		assertThat(http.post("/v1/chat/completions", body).statusCode()).isEqualTo(200);
	}

	@Test
	void frozenGenerationsAreHeldBeforeAnyByteUntilCleared() {
		http.post("/sim/faults", "{\"freezeGenerations\":true}");
		CompletableFuture<HttpResponse<String>> held = http.client()
			.sendAsync(http.request("/v1/chat/completions")
				.POST(HttpRequest.BodyPublishers.ofString(SimHttpClient.chatBody("test-model", "hi", 3, false)))
				.build(), HttpResponse.BodyHandlers.ofString());

		await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> !held.isDone());
		assertThat(http.get("/metrics").statusCode()).as("metrics still served").isEqualTo(200);

		http.delete("/sim/faults");
		assertThat(held).succeedsWithin(Duration.ofSeconds(10))
			.satisfies((response) -> assertThat(response.statusCode()).isEqualTo(200));
	}

	@Test
	void aStalledStreamGoesSilentAfterTheGivenChunksUntilCleared() {
		http.post("/sim/faults", "{\"stallStreamsAfterChunks\":2}");
		HttpResponse<Stream<String>> response = http.postForLines("/v1/completions",
				"{\"prompt\":\"x\",\"max_tokens\":5,\"stream\":true}");
		Iterator<String> lines = response.body().filter((line) -> !line.isEmpty()).iterator();
		List<String> events = new ArrayList<>();
		events.add(lines.next());
		events.add(lines.next());
		CompletableFuture<String> third = CompletableFuture.supplyAsync(lines::next);

		await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> !third.isDone());
		http.delete("/sim/faults");

		assertThat(third).succeedsWithin(Duration.ofSeconds(10)).asString().startsWith("data: {");
	}
}
