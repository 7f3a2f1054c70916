package io.infergate.gateway;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.routing.auth.ApiKeyHash;
import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.flowcontrol.FlowController;
import io.infergate.routing.flowcontrol.PoolFlowReport;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Flow control end to end, on one simulated pod that takes one request at a time (the concurrency detector): while
 * it is busy, requests wait at the gateway by priority, and are refused with 429 and the reason when their band is
 * full or their wait expires; clients that go away leave nothing behind.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false", "infergate.auth.enabled=true",
				"infergate.flow-control.detector=concurrency",
				"infergate.flow-control.max-requests-per-endpoint=1",
				"infergate.flow-control.max-queued-requests-per-band=4",
				"infergate.auth.keys.interactive.tenant=interactive",
				"infergate.auth.keys.interactive.priority=10", "infergate.auth.keys.batch.tenant=batch",
				"infergate.auth.keys.batch.priority=0" })
class FlowControlTests extends SimulatedPods {

	private static final String INTERACTIVE = "sk-interactive-0123456789";

	private static final String BATCH = "sk-batch-0123456789";

	static SimulatedModelServer pod;

	@Autowired
	FlowController flowController;

	@DynamicPropertySource
	static void pool(DynamicPropertyRegistry registry) {
		pod = sims.start("llama");
		registry.add("infergate.pools.p.endpoints", pod::baseUrl);
		registry.add("infergate.auth.keys.interactive.sha256", () -> ApiKeyHash.sha256Hex(INTERACTIVE));
		registry.add("infergate.auth.keys.batch.sha256", () -> ApiKeyHash.sha256Hex(BATCH));
	}

	@BeforeEach
	void podIsReady() {
		awaitReady("p");
	}

	@AfterEach
	void nothingIsLeftWaitingOrInFlight() {
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			PoolFlowReport report = flowController.report("p");
			assertThat(report.queuedRequests()).isZero();
			assertThat(report.inFlightRequests()).isZero();
			assertThat(report.inFlightTokens()).isZero();
			assertThat(endpoints.pool("p").endpoints()).allMatch((endpoint) -> endpoint.inFlightRequests() == 0);
		});
	}

	private CompletableFuture<HttpResponse<String>> chat(String secret, int maxTokens, String... headers) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url("/v1/chat/completions")))
			.timeout(Duration.ofSeconds(60))
			.header("Content-Type", "application/json")
			.header("Authorization", "Bearer " + secret)
			.POST(HttpRequest.BodyPublishers.ofString(Http.chat("llama", "hello", false, maxTokens)));
		for (int i = 0; i < headers.length; i += 2) {
			request.header(headers[i], headers[i + 1]);
		}
		return Http.client().sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	private void awaitQueued(int requests) {
		await().atMost(Duration.ofSeconds(10)).until(() -> flowController.report("p") != null
				&& flowController.report("p").queuedRequests() == requests);
	}

	@Test
	void aFloodOfLowPriorityRequestsWaitsBehindHighPriorityOnesAndItsOverflowGets429WithRetryAfter() {
		ConcurrentLinkedQueue<String> finished = new ConcurrentLinkedQueue<>();
		CompletableFuture<HttpResponse<String>> first = chat(BATCH, 500); // busy for about 3 s
		await().atMost(Duration.ofSeconds(10)).until(() -> pod.metrics().numRequestsRunning() == 1);
		List<CompletableFuture<HttpResponse<String>>> batch = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			int n = i;
			batch.add(chat(BATCH, 20).whenComplete((response, ex) -> finished.add("batch-" + n)));
		}
		await().atMost(Duration.ofSeconds(10))
			.until(() -> batch.stream().filter(CompletableFuture::isDone).count() == 2);
		awaitQueued(4);
		List<CompletableFuture<HttpResponse<String>>> interactive = List.of(
				chat(INTERACTIVE, 20).whenComplete((response, ex) -> finished.add("interactive")),
				chat(INTERACTIVE, 20).whenComplete((response, ex) -> finished.add("interactive")));
		awaitQueued(6);

		CompletableFuture.allOf(interactive.toArray(CompletableFuture[]::new)).join();
		CompletableFuture.allOf(batch.toArray(CompletableFuture[]::new)).join();

		assertThat(first.join().statusCode()).isEqualTo(200);
		assertThat(interactive).allSatisfy((response) -> assertThat(response.join().statusCode()).isEqualTo(200));
		List<HttpResponse<String>> refused = batch.stream()
			.map(CompletableFuture::join)
			.filter((response) -> response.statusCode() == 429)
			.toList();
		assertThat(refused).hasSize(2).allSatisfy((response) -> {
			assertThat(response.headers().firstValue("x-infergate-dropped-reason")).hasValue("rejected-capacity");
			assertThat(response.headers().firstValue("retry-after").map(Long::parseLong)).hasValueSatisfying(
					(seconds) -> assertThat(seconds).isPositive());
			assertThat(response.body()).contains("\"code\":\"rejected_capacity\"");
		});
		List<String> order = new ArrayList<>(finished);
		// the two refused batch requests end first; then both interactive ones before any waiting batch request
		assertThat(order.subList(2, 4)).containsExactly("interactive", "interactive");
	}

	@Test
	void aWaitThatOutlivesItsTimeToLiveGets429TtlExpired() {
		CompletableFuture<HttpResponse<String>> busy = chat(BATCH, 200);
		await().atMost(Duration.ofSeconds(10)).until(() -> pod.metrics().numRequestsRunning() == 1);

		HttpResponse<String> expired = chat(INTERACTIVE, 5, "x-infergate-queue-ttl-ms", "300").join();

		assertThat(expired.statusCode()).isEqualTo(429);
		assertThat(expired.headers().firstValue("x-infergate-dropped-reason")).hasValue("ttl-expired");
		assertThat(expired.headers().firstValue("retry-after")).isPresent();
		assertThat(expired.headers().firstValue("retry-after-ms")).isPresent();
		assertThat(expired.body()).contains("\"code\":\"ttl_expired\"");
		assertThat(busy.join().statusCode()).isEqualTo(200);
	}

	@Test
	void clientsThatDisconnectWhileWaitingLeaveNoQueuedOrInFlightRequest() throws IOException {
		CompletableFuture<HttpResponse<String>> busy = chat(BATCH, 100);
		await().atMost(Duration.ofSeconds(10)).until(() -> pod.metrics().numRequestsRunning() == 1);
		List<Socket> clients = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			clients.add(rawChat(BATCH));
		}
		awaitQueued(3);

		for (Socket client : clients) {
			client.close();
		}

		awaitQueued(0);
		assertThat(busy.join().statusCode()).isEqualTo(200);
		// the after-each check: nothing in flight once the running request ends
	}

	/** Sends a chat request on a raw connection and leaves it waiting for the answer. */
	private Socket rawChat(String secret) throws IOException {
		byte[] body = Http.chat("llama", "hello", false, 20).getBytes(StandardCharsets.UTF_8);
		Socket socket = new Socket("127.0.0.1", port);
		OutputStream out = socket.getOutputStream();
		out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
				+ "Authorization: Bearer " + secret + "\r\nContent-Length: " + body.length + "\r\n\r\n")
			.getBytes(StandardCharsets.US_ASCII));
		out.write(body);
		out.flush();
		return socket;
	}
}
