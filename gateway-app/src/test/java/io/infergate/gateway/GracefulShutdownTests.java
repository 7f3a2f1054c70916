package io.infergate.gateway;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.Sims;
import io.infergate.routing.flowcontrol.FlowController;
import io.infergate.routing.flowcontrol.PoolFlowReport;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Shutting the gateway down: a stream that is running finishes, a request waiting in flow control is answered 503
 * {@code shutting-down} at once.
 */
class GracefulShutdownTests {

	private static final Sims sims = new Sims();

	@AfterAll
	static void stopSims() {
		sims.close();
	}

	private static CompletableFuture<HttpResponse<String>> chat(int port, boolean stream, int maxTokens) {
		return Http.client()
			.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/chat/completions"))
				.timeout(Duration.ofSeconds(60))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(Http.chat("llama", "hello", stream, maxTokens)))
				.build(), HttpResponse.BodyHandlers.ofString());
	}

	@Test
	void aRunningStreamFinishesAndAWaitingRequestIsAnswered503ShuttingDown() {
		SimulatedModelServer pod = sims.start("llama");
		ConfigurableApplicationContext gateway = new SpringApplicationBuilder(InfergateGatewayApplication.class).run(
				"--server.port=0", "--management.server.port=0", "--infergate.demo.enabled=false",
				"--infergate.pools.p.endpoints=" + pod.baseUrl(), "--infergate.flow-control.detector=concurrency",
				"--infergate.flow-control.max-requests-per-endpoint=1");
		int port = Integer.parseInt(gateway.getEnvironment().getProperty("local.server.port"));
		FlowController flowControl = gateway.getBean(FlowController.class);
		await().atMost(Duration.ofSeconds(30))
			.until(() -> gateway.getBean(io.infergate.routing.pool.EndpointRegistry.class)
				.pool("p")
				.endpoints()
				.stream()
				.allMatch(io.infergate.routing.endpoint.Endpoint::isReady));
		CompletableFuture<HttpResponse<String>> running = chat(port, true, 300); // about 2 s of tokens
		await().atMost(Duration.ofSeconds(10)).until(() -> pod.metrics().numRequestsRunning() == 1);
		CompletableFuture<HttpResponse<String>> waiting = chat(port, false, 5);
		await().atMost(Duration.ofSeconds(10)).until(() -> {
			PoolFlowReport report = flowControl.report("p");
			return report != null && report.queuedRequests() == 1;
		});

		CompletableFuture<Void> closed = CompletableFuture.runAsync(gateway::close);

		HttpResponse<String> refused = waiting.join();
		assertThat(refused.statusCode()).isEqualTo(503);
		assertThat(refused.headers().firstValue("x-infergate-dropped-reason")).hasValue("shutting-down");
		assertThat(running).isNotDone();
		HttpResponse<String> stream = running.join();
		assertThat(stream.statusCode()).isEqualTo(200);
		assertThat(stream.body()).contains("data: [DONE]");
		closed.join();
	}
}
