package io.infergate.gateway.config.reload;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import io.infergate.gateway.support.GatewayContexts;
import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.Sims;
import io.infergate.routing.engine.LiveConfiguration;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.scheduling.config.SchedulingProfiles;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A gateway whose models, limits and scheduling weights live in a file it watches: editing the file changes how the
 * next requests route, a file with a problem is refused whole and the running configuration stays.
 */
@ExtendWith(OutputCaptureExtension.class)
class LiveConfigurationTests {

	private static final Duration PATIENCE = Duration.ofSeconds(20);

	private static final JsonMapper JSON = JsonMapper.builder().build();

	static final String VERSION_1 = """
			infergate:
			  pools: POOLS
			  models:
			    chat: {pool: first, target-model: llama}
			    retired: {pool: first, target-model: llama}
			  scheduling:
			    profiles:
			      llm-d:
			        scorers: {queue: 2}
			""";

	static final String VERSION_2 = """
			infergate:
			  pools: POOLS
			  models:
			    chat: {pool: second, target-model: mistral}
			    added: {pool: first, target-model: llama, limits: {rpm: 2}}
			  scheduling:
			    profiles:
			      llm-d:
			        scorers: {queue: 7}
			""";

	@TempDir
	static Path directory;

	private static final Sims sims = new Sims();

	private static ConfigurableApplicationContext gateway;

	private static SimulatedModelServer llama;

	private static SimulatedModelServer secondLlama;

	private static SimulatedModelServer mistral;

	/** Two pools: {@code first} with {@code llamas} and the profile llm-d, {@code second} with the mistral pod. */
	private static String pools(SimulatedModelServer... llamas) {
		return "{first: {endpoints: [" + Sims.urls(llamas) + "], profile: llm-d}, second: {endpoints: ["
				+ Sims.urls(mistral) + "]}}";
	}

	@BeforeAll
	static void start() throws IOException {
		llama = sims.start("llama");
		secondLlama = sims.start("llama");
		mistral = sims.start("mistral");
		write(VERSION_1);
		gateway = GatewayContexts.start("--spring.config.additional-location=file:" + directory + "/",
				"--infergate.config-reload.watch-interval=100ms");
	}

	@AfterAll
	static void stop() {
		if (gateway != null) {
			gateway.close();
		}
		sims.close();
	}

	@BeforeEach
	void versionOne() throws IOException {
		write(VERSION_1);
		await().atMost(PATIENCE).until(() -> served("chat").equals("llama")
				&& configuration().path("lastReloadOutcome").asString().matches("applied|unchanged|"));
	}

	private static void write(String yaml) throws IOException {
		write(yaml, pools(llama));
	}

	private static void write(String yaml, String pools) throws IOException {
		Files.writeString(directory.resolve("application.yml"), yaml.replace("POOLS", pools));
	}

	private static HttpResponse<String> chat(String model) {
		return Http.postJson(GatewayContexts.url(gateway, "/v1/chat/completions"), Http.chat(model, "hello", false, 2));
	}

	/** The model that answered a request for {@code model}, or its status when it failed. */
	private static String served(String model) {
		HttpResponse<String> response = chat(model);
		return (response.statusCode() == 200) ? JSON.readTree(response.body()).path("model").asString()
				: "HTTP " + response.statusCode();
	}

	private static JsonNode configuration() {
		return JSON.readTree(Http.getAsAdmin(GatewayContexts.managementUrl(gateway, "/actuator/inference")).body())
			.path("configuration");
	}

	@Test
	void editingTheFileChangesModelsLimitsAndWeightsForTheNextRequests() throws IOException {
		long before = gateway.getBean(LiveConfiguration.class).status().version();

		write(VERSION_2);

		await().atMost(PATIENCE).until(() -> served("chat").equals("mistral"));
		assertThat(served("added")).isEqualTo("llama");
		assertThat(served("retired")).isEqualTo("HTTP 404");
		assertThat(gateway.getBean(SchedulingProfiles.class).get("llm-d").weights()).containsEntry("queue", 7.0);
		// the new model's limit: 2 requests a minute, the one above was the first
		assertThat(chat("added").statusCode()).isEqualTo(200);
		assertThat(chat("added").statusCode()).isEqualTo(429);
		JsonNode configuration = configuration();
		assertThat(configuration.path("version").asLong()).isGreaterThan(before);
		assertThat(configuration.path("lastReloadOutcome").asString()).isEqualTo("applied");
	}

	@Test
	void aFileWithProblemsIsRefusedWholeAndTheRunningConfigurationStays(CapturedOutput output) throws IOException {
		long before = gateway.getBean(LiveConfiguration.class).status().version();

		write("""
				infergate:
				  pools: POOLS
				  models:
				    chat: {pool: second, target-model: mistral}
				    broken: {pool: nowhere, target-model: llama}
				  scheduling:
				    profiles:
				      llm-d:
				        scorers: {queue: -1}
				""");

		await().atMost(PATIENCE).until(() -> configuration().path("lastReloadOutcome").asString().equals("rejected"));
		JsonNode configuration = configuration();
		assertThat(configuration.path("version").asLong()).isEqualTo(before);
		assertThat(configuration.path("problems").toString()).contains("infergate.models.broken.pool")
			.contains("nowhere")
			.contains("infergate.scheduling.profiles.llm-d.scorers.queue");
		assertThat(output).contains("Configuration reload (refresh").contains("rejected; version " + before);
		// still version one: chat goes to the first pool, and the weight is the old one
		assertThat(served("chat")).isEqualTo("llama");
		assertThat(gateway.getBean(SchedulingProfiles.class).get("llm-d").weights()).containsEntry("queue", 2.0);
	}

	@Test
	void aStaticPoolsEndpointsAndTimeoutsChangeButNotItsEngine() throws IOException {
		EndpointRegistry registry = gateway.getBean(EndpointRegistry.class);

		write(VERSION_1, pools(llama, secondLlama));

		await().atMost(PATIENCE).until(() -> registry.pool("first").endpoints().size() == 2
				&& registry.pool("first").endpoints().stream().allMatch((endpoint) -> endpoint.isReady()));
		assertThat(served("chat")).isEqualTo("llama");

		write(VERSION_1, "{first: {endpoints: [" + Sims.urls(llama) + "], profile: llm-d, timeouts: {first-byte: 5s},"
				+ " upstream-api-key: pool-token}, second: {endpoints: [" + Sims.urls(mistral) + "]}}");

		await().atMost(PATIENCE).until(() -> registry.pool("first").endpoints().size() == 1);
		assertThat(registry.pool("first").settings().timeouts().firstByte()).isEqualTo(Duration.ofSeconds(5));
		assertThat(registry.pool("first").settings().upstreamApiKey()).isEqualTo("pool-token");
		assertThat(served("chat")).isEqualTo("llama");

		write(VERSION_1, "{first: {endpoints: [" + Sims.urls(llama) + "], profile: llm-d, engine: sglang},"
				+ " second: {endpoints: [" + Sims.urls(mistral) + "]}}");

		await().atMost(PATIENCE).until(() -> configuration().path("problems").toString()
			.contains("infergate.pools.first: of a pool that stays, only its profile, failure-mode, timeouts"));
		assertThat(registry.pool("first").engine().configName()).isEqualTo("vllm");
	}

	@Test
	void aPoolAddedServesItsModelsAtOnceAndAPoolRemovedDrainsAndLeaves(CapturedOutput output) throws IOException {
		EndpointRegistry registry = gateway.getBean(EndpointRegistry.class);
		LiveConfiguration live = gateway.getBean(LiveConfiguration.class);
		SimulatedModelServer qwen = sims.start("qwen");
		long before = live.status().version();

		write(VERSION_1.replace("    retired:", "    fresh: {pool: third, target-model: qwen}\n    retired:"),
				pools(llama).replace("}}", "}, third: {endpoints: [" + Sims.urls(qwen) + "], profile: llm-d}}"));

		await().atMost(PATIENCE).until(() -> live.status().version() > before);
		// the reload waited for the new pool's endpoint: its model is served from the first request on
		assertThat(served("fresh")).isEqualTo("qwen");
		assertThat(registry.pool("third").readyEndpoints(java.util.List.of())).hasSize(1);
		assertThat(output).contains("Pool 'third' added");
		assertThat(Http.get(GatewayContexts.managementUrl(gateway, "/actuator/health/readiness")).statusCode())
			.isEqualTo(200);

		long added = live.status().version();
		write(VERSION_1);

		await().atMost(PATIENCE).until(() -> live.status().version() > added);
		assertThat(served("fresh")).isEqualTo("HTTP 404");
		await().atMost(PATIENCE).until(() -> registry.pool("third") == null);
		assertThat(live.status().retiringPools()).isEmpty();
		assertThat(output).contains("Pool 'third' retiring").contains("Pool 'third' removed with its 1 endpoint(s)");
		JsonNode inference = JSON.readTree(
				Http.getAsAdmin(GatewayContexts.managementUrl(gateway, "/actuator/inference")).body());
		assertThat(inference.path("pools").toString()).doesNotContain("\"third\"").contains("\"first\"");
		assertThat(served("chat")).isEqualTo("llama");
	}

	@Test
	void aPoolAddedWithProblemsIsRefusedAndOneWithoutAReadyEndpointKeepsTheGatewayReady() throws IOException {
		EndpointRegistry registry = gateway.getBean(EndpointRegistry.class);
		LiveConfiguration live = gateway.getBean(LiveConfiguration.class);

		write(VERSION_1, pools(llama).replace("}}", "}, bad-: {endpoints: [\"http://127.0.0.1:9\"]}, "
				+ "slow: {endpoints: [\"http://127.0.0.1:9\"], timeouts: {first-byte: 0s}}, "
				+ "both: {endpoints: [\"http://127.0.0.1:9\"], discovery-service-id: both}}"));

		await().atMost(PATIENCE).until(() -> configuration().path("lastReloadOutcome").asString().equals("rejected"));
		assertThat(configuration().path("problems").toString()).contains("infergate.pools.bad-: a pool name must be")
			.contains("infergate.pools.slow.timeouts.first-byte: must be positive")
			.contains("infergate.pools.both: set exactly one of 'endpoints'");
		assertThat(registry.pool("slow")).isNull();

		long before = live.status().version();
		write(VERSION_1, pools(llama).replace("}}", "}, dead: {endpoints: [\"http://127.0.0.1:9\"]}}"));

		await().atMost(PATIENCE).until(() -> live.status().version() > before);
		assertThat(registry.pool("dead").readyEndpoints(java.util.List.of())).isEmpty();
		// a pool added at runtime counts for readiness once it has served; until then the gateway stays ready
		HttpResponse<String> readiness = Http.get(GatewayContexts.managementUrl(gateway, "/actuator/health/readiness"));
		assertThat(readiness.statusCode()).isEqualTo(200);
	}
}
