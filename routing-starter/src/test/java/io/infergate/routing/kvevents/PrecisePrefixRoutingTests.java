package io.infergate.routing.kvevents;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.infergate.routing.InferenceRouter;
import io.infergate.routing.RoutingOutcome;
import io.infergate.routing.autoconfigure.RoutingAutoConfiguration;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.prefix.EngineBlockIndex;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.scheduling.autoconfigure.SchedulingAutoConfiguration;
import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.SimulatorConfig;
import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.PerfProfile;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * End to end in a Spring context: simulated vLLM pods publish their KV-cache events over ZeroMQ, the routing starter
 * subscribes, a request served by one pod shows up in the engine block index, and a request repeating its prefix is
 * scored towards that pod and routed there by the shipped {@code precise} profile.
 */
class PrecisePrefixRoutingTests {

	private static final String SYSTEM = "You are the assistant of the routing team. Answer plainly and cite the policy"
		.repeat(12);

	private final List<SimulatedModelServer> pods = new ArrayList<>();

	private ConfigurableApplicationContext context;

	@AfterEach
	void close() {
		if (context != null) {
			context.close();
		}
		pods.forEach(SimulatedModelServer::close);
	}

	@Test
	void aRepeatedPrefixIsRoutedToThePodWhoseEngineReportsItCached() throws Exception {
		List<String> args = new ArrayList<>(List.of("--infergate.pools.llama.profile=precise",
				"--infergate.pools.llama.kv-events.enabled=true", "--infergate.pools.llama.scrape.interval=20ms",
				"--infergate.scheduling.saturation.staleness-threshold=5s"));
		StringBuilder endpoints = new StringBuilder();
		for (int i = 0; i < 3; i++) {
			SimulatedModelServer pod = new SimulatedModelServer(SimulatorConfig.builder("llama")
				.engine(EngineConfig.builder().perfProfile(PerfProfile.ZERO).build())
				.kvEventsPort(0)
				.kvEventsReplayPort(0)
				.build()).start();
			pods.add(pod);
			endpoints.append((i > 0) ? "," : "").append(pod.baseUrl());
			String id = "127.0.0.1:" + pod.port();
			args.add("--infergate.pools.llama.kv-events.addresses.[" + id + "].publisher=tcp://127.0.0.1:"
					+ pod.kvEventsPort());
			args.add("--infergate.pools.llama.kv-events.addresses.[" + id + "].replay=tcp://127.0.0.1:"
					+ pod.kvEventsReplayPort());
		}
		args.add("--infergate.pools.llama.endpoints=" + endpoints);
		context = new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.run(args.toArray(String[]::new));
		EndpointRegistry registry = context.getBean(EndpointRegistry.class);
		await().atMost(Duration.ofSeconds(30))
			.until(() -> registry.pool("llama").endpoints().size() == 3
					&& registry.pool("llama").endpoints().stream().allMatch(Endpoint::isReady));
		SimulatedModelServer cached = pods.get(1);
		EndpointId cachedId = new EndpointId("127.0.0.1", cached.port());

		assertThat(chat(cached, chatBody(SYSTEM, "What is the first rule?")).statusCode()).isEqualTo(200);

		// A subscription reaches the publisher asynchronously, so the first batch may be missed; any later batch
		// then reveals the gap and the subscriber replays from 0.
		EngineBlockIndex index = context.getBean(EngineBlockIndex.class);
		await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> {
			if (index.blocks(cachedId) > 0) {
				return true;
			}
			chat(cached, chatBody("An unrelated prompt. ".repeat(20), "nudge"));
			return false;
		});
		InferenceRouter router = context.getBean(InferenceRouter.class);
		RoutingOutcome outcome = router.route(request("And the second one?"), List.of());

		assertThat(outcome.hasEndpoint()).isTrue();
		assertThat(outcome.chosen().id()).isEqualTo(cachedId);
		assertThat(context.getBean(KvEventSubscriptions.class).status()).hasSize(3)
			.allSatisfy((stream) -> assertThat(stream.lostHistories()).isZero());
	}

	private static HttpResponse<String> chat(SimulatedModelServer pod, String body) throws Exception {
		return HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create(pod.baseUrl() + "/v1/chat/completions"))
				.header("content-type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(body))
				.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static String chatBody(String system, String question) {
		return "{\"model\":\"llama\",\"max_tokens\":1,\"messages\":[{\"role\":\"system\",\"content\":\"" + system
				+ "\"},{\"role\":\"user\",\"content\":\"" + question + "\"}]}";
	}

	/** The request as the gateway builds it from the same messages. */
	private static InferenceRequest request(String question) {
		String prompt = "\u001esystem\u001f" + SYSTEM + "\u001euser\u001f" + question;
		return new InferenceRequest("llama", "llama", "llama", null, prompt,
				InferenceRequest.estimateTokens(prompt.length()), 16, false, null, 0);
	}

	@SpringBootConfiguration
	@ImportAutoConfiguration({ SchedulingAutoConfiguration.class, RoutingAutoConfiguration.class })
	static class Application {

	}
}
