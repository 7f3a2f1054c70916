package io.infergate.gateway.config.reload;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.context.ConfigurableApplicationContext;

import io.infergate.gateway.support.GatewayContexts;
import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.Sims;
import io.infergate.routing.engine.LiveConfiguration;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Twenty configuration reloads during a minute of mixed traffic (streamed and not, three models whose targets and
 * weights change between the two versions, and a pool that one version adds and the other removes while a model
 * sends it traffic): every request is answered 200, every stream ends with {@code [DONE]}.
 */
class ReloadUnderLoadTests {

	private static final Duration RUN = Duration.ofSeconds(60);

	private static final int RELOADS = 20;

	private static final int CLIENTS = 6;

	static final String VERSION_A = """
			infergate:
			  models:
			    chat: {pool: first, target-model: llama}
			    assistant: {pool: second, target-model: mistral}
			    helper: {pool: second, target-model: mistral}
			  scheduling:
			    profiles:
			      llm-d:
			        scorers: {queue: 2, kv-cache: 2, prefix-cache: 3}
			""";

	static final String VERSION_B = """
			infergate:
			  models:
			    chat: {pool: second, target-model: mistral}
			    assistant: {pool: first, target-model: llama}
			    helper: {pool: third, target-model: qwen}
			  pools:
			    third: {endpoints: [THIRD], profile: llm-d}
			  scheduling:
			    profiles:
			      llm-d:
			        scorers: {queue: 5, kv-cache: 1, prefix-cache: 1}
			""";

	@TempDir
	static Path directory;

	private static final Sims sims = new Sims();

	private static ConfigurableApplicationContext gateway;

	private static String versionB;

	@BeforeAll
	static void start() throws IOException {
		List<SimulatedModelServer> llama = List.of(sims.start("llama"), sims.start("llama"));
		List<SimulatedModelServer> mistral = List.of(sims.start("mistral"), sims.start("mistral"));
		versionB = VERSION_B.replace("THIRD", Sims.urls(sims.start("qwen"), sims.start("qwen")));
		Files.writeString(directory.resolve("application.yml"), VERSION_A);
		gateway = GatewayContexts.start("--spring.config.additional-location=file:" + directory + "/",
				"--infergate.config-reload.watch-interval=100ms",
				"--infergate.pools.first.endpoints=" + Sims.urls(llama.toArray(SimulatedModelServer[]::new)),
				"--infergate.pools.first.profile=llm-d",
				"--infergate.pools.second.endpoints=" + Sims.urls(mistral.toArray(SimulatedModelServer[]::new)),
				"--infergate.pools.second.profile=llm-d");
	}

	@AfterAll
	static void stop() {
		if (gateway != null) {
			gateway.close();
		}
		sims.close();
	}

	@Test
	void noRequestIsLostOrAnswered5xxWhileTheConfigurationReloadsTwentyTimes() throws Exception {
		LiveConfiguration live = gateway.getBean(LiveConfiguration.class);
		long versionBefore = live.status().version();
		String url = GatewayContexts.url(gateway, "/v1/chat/completions");
		long deadline = System.nanoTime() + RUN.toNanos();
		AtomicLong sent = new AtomicLong();
		AtomicLong answered = new AtomicLong();
		Map<String, AtomicInteger> failures = new ConcurrentHashMap<>();
		ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
		List<Future<?>> running = new ArrayList<>();
		for (int c = 0; c < CLIENTS; c++) {
			int client = c;
			running.add(clients.submit(() -> {
				for (int i = 0; System.nanoTime() < deadline; i++) {
					boolean stream = (i + client) % 2 == 0;
					String model = switch (i % 4) {
						case 0 -> "assistant";
						case 1 -> "helper";
						default -> "chat";
					};
					sent.incrementAndGet();
					HttpResponse<String> response = Http.send(HttpRequest.newBuilder(URI.create(url))
						.header("Content-Type", "application/json")
						.timeout(Duration.ofSeconds(30))
						.POST(HttpRequest.BodyPublishers.ofString(Http.chat(model, "Question " + i + " of client "
								+ client, stream, 8)))
						.build());
					boolean complete = response.statusCode() == 200
							&& (!stream || response.body().stripTrailing().endsWith("data: [DONE]"));
					if (complete) {
						answered.incrementAndGet();
					}
					else {
						failures.computeIfAbsent(response.statusCode() + " " + (stream ? "stream" : "json") + ": "
								+ response.body().substring(0, Math.min(200, response.body().length())),
								(key) -> new AtomicInteger())
							.incrementAndGet();
					}
				}
				return null;
			}));
		}
		long interval = RUN.toMillis() / (RELOADS + 1);
		for (int reload = 1; reload <= RELOADS; reload++) {
			Thread.sleep(interval);
			Files.writeString(directory.resolve("application.yml"), (reload % 2 == 1) ? versionB : VERSION_A);
			long expected = versionBefore + reload;
			await().atMost(Duration.ofSeconds(10)).until(() -> live.status().version() >= expected);
		}
		for (Future<?> client : running) {
			client.get(90, TimeUnit.SECONDS);
		}
		clients.shutdown();

		System.out.printf("%d requests in %d s across %d configuration reloads: %d answered in full%n", sent.get(),
				RUN.toSeconds(), live.status().version() - versionBefore, answered.get());
		assertThat(failures).as("requests not answered 200 in full").isEmpty();
		assertThat(answered.get()).isEqualTo(sent.get()).isGreaterThan(100);
		assertThat(live.status().version()).isEqualTo(versionBefore + RELOADS);
		assertThat(live.status().lastReloadOutcome()).isEqualTo("applied");
		// the last version has no third pool: it drains and leaves
		EndpointRegistry registry = gateway.getBean(EndpointRegistry.class);
		await().atMost(Duration.ofSeconds(20)).until(() -> registry.pool("third") == null);
	}
}
