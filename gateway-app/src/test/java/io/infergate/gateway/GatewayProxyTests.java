package io.infergate.gateway;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.cloud.gateway.filter.ForwardRoutingFilter;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.filter.ReactiveLoadBalancerClientFilter;
import org.springframework.cloud.gateway.filter.RouteToRequestUrlFilter;
import org.springframework.cloud.gateway.filter.WebsocketRoutingFilter;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.loadbalancer.InferenceLoadBalancerClientFilter;
import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.gateway.support.Sims;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.pool.EndpointPool;
import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.engine.PerfProfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The request path end to end, over real HTTP, against simulated vLLM pods: routing by model, rewriting,
 * streaming, retry, failures and in-flight accounting.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"infergate.scheduling.default-profile=round-robin",
				"infergate.gateway.served-models-refresh-interval=1s" })
class GatewayProxyTests extends SimulatedPods {

	static SimulatedModelServer a0, a1, b0, c0, c1, d0, d1, slow, flaky;

	@DynamicPropertySource
	static void pools(DynamicPropertyRegistry registry) {
		a0 = sims.start("llama-a");
		a1 = sims.start("llama-a");
		b0 = sims.start("llama-b", PerfProfile.LLAMA_3_1_8B_H100, (engine) -> engine.loraModules(List.of("support-lora")).maxLoras(2));
		c0 = sims.start("llama-c");
		c1 = sims.start("llama-c");
		d0 = sims.start("llama-d");
		d1 = sims.start("llama-d");
		// ~16 ms a step: 100 tokens take over a second and a half
		slow = sims.start("llama-slow", PerfProfile.LLAMA_3_1_8B_A100, (engine) -> {
		});
		flaky = sims.start("llama-flaky");
		registry.add("infergate.pools.a.endpoints", () -> Sims.urls(a0, a1));
		registry.add("infergate.pools.b.endpoints", () -> Sims.urls(b0));
		registry.add("infergate.pools.c.endpoints", () -> Sims.urls(c0, c1));
		// keep a pod that stopped answering in rotation, so its requests must be retried
		registry.add("infergate.pools.c.scrape.unready-after-failures", () -> "100000");
		registry.add("infergate.pools.d.endpoints", () -> Sims.urls(d0, d1));
		registry.add("infergate.pools.slow.endpoints", () -> Sims.urls(slow));
		registry.add("infergate.pools.flaky.endpoints", () -> Sims.urls(flaky));
		registry.add("infergate.models.alpha.pool", () -> "a");
		registry.add("infergate.models.alpha.target-model", () -> "llama-a");
		registry.add("infergate.models.delta.pool", () -> "d");
		registry.add("infergate.models.delta.target-model", () -> "llama-d");
		registry.add("infergate.models.support.pool", () -> "b");
		registry.add("infergate.models.support.target-model", () -> "llama-b");
		registry.add("infergate.models.support.adapter", () -> "support-lora");
	}

	@BeforeEach
	void everyPoolHasAReadyEndpoint() {
		await().atMost(Duration.ofSeconds(20)).until(() -> endpoints.pools().stream()
			.filter((pool) -> !pool.name().equals("d"))
			.allMatch((pool) -> pool.endpoints().stream().anyMatch(Endpoint::isReady)));
	}

	private HttpResponse<String> chat(String model, boolean stream, int maxTokens) {
		return Http.postJson(url("/v1/chat/completions"), Http.chat(model, "hello there", stream, maxTokens));
	}

	@Autowired
	List<GlobalFilter> globalFilters;

	@Test
	void theLoadBalancerFilterIsInfergatesOwnAndTheUnusedOnesAreOff() {
		assertThat(globalFilters).filteredOn(ReactiveLoadBalancerClientFilter.class::isInstance)
			.singleElement()
			.isInstanceOf(InferenceLoadBalancerClientFilter.class);
		assertThat(globalFilters).noneMatch((filter) -> filter instanceof RouteToRequestUrlFilter
				|| filter instanceof WebsocketRoutingFilter || filter instanceof ForwardRoutingFilter);
	}

	@Test
	void routesEachModelToItsPoolAndRewritesTheModel() {
		HttpResponse<String> alpha = chat("alpha", false, 4);
		HttpResponse<String> beta = chat("llama-b", false, 4);

		assertThat(alpha.statusCode()).isEqualTo(200);
		assertThat(alpha.headers().firstValue("x-infergate-pool")).hasValue("a");
		assertThat(alpha.headers().firstValue("x-infergate-endpoint").orElseThrow()).isIn(Sims.id(a0), Sims.id(a1));
		assertThat(alpha.body()).contains("\"model\":\"llama-a\"");
		// not configured, but served by exactly one pool: routed there unchanged
		assertThat(beta.statusCode()).isEqualTo(200);
		assertThat(beta.headers().firstValue("x-infergate-pool")).hasValue("b");
		assertThat(beta.headers().firstValue("x-infergate-endpoint")).hasValue(Sims.id(b0));
	}

	@Test
	void withoutKeysOrLimitsEveryRequestPassesAsBeforeWithoutRateLimitHeaders() {
		HttpResponse<String> response = Http.send(HttpRequest.newBuilder(URI.create(url("/v1/chat/completions")))
			.header("Content-Type", "application/json")
			.header("Authorization", "Bearer anything-at-all")
			.POST(HttpRequest.BodyPublishers.ofString(Http.chat("alpha", "no keys", false, 2)))
			.build());

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().map().keySet()).noneMatch((name) -> name.startsWith("x-ratelimit"));
		assertThat(Http.getAsAdmin(managementUrl("/actuator/inference")).body()).contains("\"tenants\":[]");
	}

	@Test
	void sendsAnAdapterModelAsTheAdapterName() {
		HttpResponse<String> response = chat("support", false, 4);

		assertThat(response.statusCode()).isEqualTo(200);
		// the simulator answers with the model it was sent
		assertThat(response.body()).contains("\"model\":\"support-lora\"");
	}

	@Test
	void listsConfiguredAndServedModels() {
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(Http.get(url("/v1/models")).body()).contains("\"id\":\"alpha\"")
				.contains("\"id\":\"support\"")
				.contains("\"id\":\"llama-b\""));
	}

	@Test
	void retriesOnAnotherPodWhenOneAnswers503BeforeAnyByte() {
		a0.faults().failNextGenerations(1, 503);
		a1.faults().failNextGenerations(0, 503);

		// round-robin: one of two consecutive requests lands on a0 first
		HttpResponse<String> first = chat("alpha", false, 4);
		HttpResponse<String> second = chat("alpha", false, 4);

		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(second.statusCode()).isEqualTo(200);
		assertThat(a0.faults().state().failNextGenerations()).isZero();
		assertThat(List.of(first, second)).anySatisfy((response) -> assertThat(
				response.headers().firstValue("x-infergate-endpoint")).hasValue(Sims.id(a1)));
		// nothing of the 503's head is left over: one length, the served body's
		assertThat(List.of(first, second)).allSatisfy((response) -> assertThat(
				response.headers().allValues("content-length")).containsExactly(
						Integer.toString(response.body().getBytes(StandardCharsets.UTF_8).length)));
	}

	@Test
	void retriesOnAnotherPodWhenOneCannotBeReached() {
		String gone = Sims.id(c1);
		c1.close();

		for (int i = 0; i < 4; i++) {
			HttpResponse<String> response = chat("llama-c", false, 4);
			assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
			assertThat(response.headers().firstValue("x-infergate-endpoint")).hasValue(Sims.id(c0));
		}
		assertThat(gone).isNotEqualTo(Sims.id(c0));
	}

	@Test
	void allPodsDownIs503InOpenAiShape() {
		EndpointPool pool = endpoints.pool("d");
		await().atMost(Duration.ofSeconds(20)).until(() -> pool.endpoints().stream().allMatch(Endpoint::isReady));
		assertThat(chat("delta", false, 1).statusCode()).isEqualTo(200);
		d0.close();
		d1.close();
		await().atMost(Duration.ofSeconds(10)).until(() -> pool.endpoints().stream().noneMatch(Endpoint::isReady));

		HttpResponse<String> response = chat("delta", false, 4);

		assertThat(response.statusCode()).isEqualTo(503);
		assertThat(response.headers().firstValue("content-type").orElseThrow()).startsWith("application/json");
		assertThat(response.body()).startsWith("{\"error\":{").contains("\"type\":\"service_unavailable\"")
			.contains("no ready endpoint");
		assertThat(response.headers().firstValue("x-infergate-pool")).hasValue("d");
	}

	@Test
	void aTwentyMebibyteBodyIs413() {
		HttpRequest.BodyPublisher chunked = HttpRequest.BodyPublishers.fromPublisher(
				HttpRequest.BodyPublishers.ofByteArrays(Collections.nCopies(20, new byte[1024 * 1024])));
		HttpResponse<String> response = Http.send(HttpRequest.newBuilder(URI.create(url("/v1/chat/completions")))
			.header("Content-Type", "application/json")
			.timeout(Duration.ofSeconds(60))
			.POST(chunked)
			.build());

		assertThat(response.statusCode()).isEqualTo(413);
		assertThat(response.body()).contains("\"code\":\"request_too_large\"");
	}

	@Test
	void anEndlessBodyIs413OnceItPassesTheLimitSoTheGatewayNeverHoldsItWhole() throws Exception {
		// curl reads the answer while it uploads, as HTTP/1.1 clients should; /dev/zero never ends, so only a
		// gateway that stops at the limit can answer at all
		Process curl = new ProcessBuilder("curl", "-sS", "-o", "-", "-w", "\n%{http_code}", "-H", "Expect:", "-H",
				"Content-Type: application/json", "-X", "POST", "--upload-file", "-",
				url("/v1/chat/completions"))
			.redirectInput(new File("/dev/zero"))
			.redirectErrorStream(true)
			.start();
		boolean finished = curl.waitFor(60, TimeUnit.SECONDS);
		if (!finished) {
			curl.destroyForcibly();
		}
		String output = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

		assertThat(finished).as("curl still uploading after 60 s").isTrue();
		assertThat(output).contains("request_too_large").endsWith("413");
	}

	@Test
	void streamsTheFirstTokensBeforeTheBackendHasFinished() throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create(url("/v1/chat/completions")))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(Http.chat("llama-slow", "stream please", true, 100)))
			.build();
		long start = System.nanoTime();
		HttpResponse<InputStream> response = Http.client().send(request, HttpResponse.BodyHandlers.ofInputStream());
		long firstEventNanos = -1;
		int events = 0;
		String last = null;
		try (BufferedReader reader = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = reader.readLine()) != null) {
				if (line.startsWith("data: ")) {
					if (firstEventNanos < 0) {
						firstEventNanos = System.nanoTime() - start;
					}
					events++;
					last = line;
				}
			}
		}
		long totalNanos = System.nanoTime() - start;

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("content-type").orElseThrow()).startsWith("text/event-stream");
		assertThat(last).isEqualTo("data: [DONE]");
		assertThat(events).isGreaterThan(100);
		// 100 decode steps of at least 16 ms each follow the first token
		assertThat(totalNanos - firstEventNanos).isGreaterThan(Duration.ofMillis(1000).toNanos());
	}

	@Test
	void aBackendFailingMidStreamEndsTheStreamWithAnErrorEvent() {
		flaky.faults().abortStreamsAfterChunks(3);
		try {
			HttpResponse<String> response = Http.send(HttpRequest.newBuilder(URI.create(url("/v1/chat/completions")))
				.header("Content-Type", "application/json")
				.timeout(Duration.ofSeconds(30))
				.POST(HttpRequest.BodyPublishers.ofString(Http.chat("llama-flaky", "x", true, 50)))
				.build());

			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.body()).contains("data: {\"error\":{").contains("upstream_stream_error");
			assertThat(response.body()).doesNotContain("[DONE]");
		}
		finally {
			flaky.faults().clear();
		}
		awaitNoInFlight("flaky");
	}

	@Test
	void aClientCancellingAStreamReleasesItsInFlightCount() throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create(url("/v1/chat/completions")))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(Http.chat("llama-slow", "long story", true, 2000)))
			.build();
		HttpResponse<InputStream> response = Http.client().send(request, HttpResponse.BodyHandlers.ofInputStream());
		InputStream body = response.body();
		body.read(new byte[64]);
		Endpoint pod = endpoints.pool("slow").endpoints().get(0);
		assertThat(pod.inFlightRequests()).isEqualTo(1);

		body.close();

		awaitNoInFlight("slow");
		assertThat(pod.inFlightTokens()).isZero();
	}

	@Test
	void twoHundredConcurrentStreamsAllCompleteAndInFlightReturnsToZero() throws Exception {
		List<CompletableFuture<HttpResponse<String>>> streams = new ArrayList<>();
		for (int i = 0; i < 200; i++) {
			HttpRequest request = HttpRequest.newBuilder(URI.create(url("/v1/chat/completions")))
				.header("Content-Type", "application/json")
				.timeout(Duration.ofSeconds(120))
				.POST(HttpRequest.BodyPublishers.ofString(Http.chat("alpha", "stream " + i, true, 16)))
				.build();
			streams.add(Http.client().sendAsync(request, HttpResponse.BodyHandlers.ofString()));
		}
		AtomicBoolean sawInFlight = new AtomicBoolean();
		for (CompletableFuture<HttpResponse<String>> stream : streams) {
			if (endpoints.pool("a").endpoints().stream().anyMatch((e) -> e.inFlightRequests() > 0)) {
				sawInFlight.set(true);
			}
			HttpResponse<String> response = stream.get(120, TimeUnit.SECONDS);
			assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
			assertThat(response.body()).endsWith("data: [DONE]\n\n");
		}
		assertThat(sawInFlight).isTrue();
		awaitNoInFlight("a");
	}

	private void awaitNoInFlight(String pool) {
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			for (Endpoint endpoint : endpoints.pool(pool).endpoints()) {
				assertThat(endpoint.inFlightRequests()).as(endpoint.toString()).isZero();
				assertThat(endpoint.inFlightTokens()).as(endpoint.toString()).isZero();
			}
		});
	}
}
