package io.infergate.gateway;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.ConfigurableApplicationContext;

import io.infergate.gateway.support.GatewayContexts;
import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.RedisServer;
import io.infergate.gateway.support.Sims;
import io.infergate.routing.replica.DispatchSharing;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two gateway replicas, each a full gateway context with its own prefix index, in front of the same four simulated
 * pods, sharing their dispatches over a real Redis: a prefix group's second request, sent to the other replica, goes
 * to the pod the first replica chose.
 */
class DispatchSharingTests {

	private static final Duration PATIENCE = Duration.ofSeconds(30);

	private static final Sims sims = new Sims();

	private static final List<SimulatedModelServer> pods = new ArrayList<>();

	private static RedisServer redis;

	private static ConfigurableApplicationContext gatewayA;

	private static ConfigurableApplicationContext gatewayB;

	@BeforeAll
	static void start() {
		redis = RedisServer.started();
		for (int i = 0; i < 4; i++) {
			pods.add(sims.start("llama"));
		}
		gatewayA = gateway();
		gatewayB = gateway();
	}

	@AfterAll
	static void stop() {
		for (ConfigurableApplicationContext gateway : new ConfigurableApplicationContext[] { gatewayA, gatewayB }) {
			if (gateway != null) {
				gateway.close();
			}
		}
		sims.close();
		if (redis != null) {
			redis.close();
		}
	}

	/**
	 * A replica whose profile weighs the prefix index alone (least-request only breaks ties): without the other's
	 * dispatches its index is empty and it would pick any of the four pods.
	 */
	private static ConfigurableApplicationContext gateway() {
		return GatewayContexts.start(
				"--infergate.pools.shared.endpoints=" + Sims.urls(pods.toArray(SimulatedModelServer[]::new)),
				"--infergate.pools.shared.profile=prefix-only",
				"--infergate.models.llama.pool=shared", "--infergate.models.llama.target-model=llama",
				"--infergate.scheduling.dispatch-sharing.transport=redis", "--infergate.redis.url=" + redis.url());
	}

	@Test
	void aGroupsSecondRequestOnTheOtherReplicaGoesToThePodTheFirstReplicaChose() {
		for (int group = 0; group < 6; group++) {
			ConfigurableApplicationContext first = (group % 2 == 0) ? gatewayA : gatewayB;
			ConfigurableApplicationContext second = (first == gatewayA) ? gatewayB : gatewayA;
			String system = systemPrompt("team-" + group);
			long appliedBefore = sharing(second).stats().applied();

			String chosen = served(first, system, "What is the first rule?");
			await().atMost(PATIENCE).until(() -> sharing(second).stats().applied() > appliedBefore);
			String followed = served(second, system, "And the second one?");

			assertThat(followed).as("group %d", group).isEqualTo(chosen);
		}
		assertThat(sharing(gatewayA).stats().rejected()).isZero();
		assertThat(sharing(gatewayB).stats().publishFailures()).isZero();
	}

	@Test
	void theActuatorShowsWhatAReplicaSharedAndHeard() {
		served(gatewayA, systemPrompt("visible"), "Anything?");
		await().atMost(PATIENCE).until(() -> sharing(gatewayB).stats().applied() > 0);

		JsonNode sharing = JsonMapper.builder()
			.build()
			.readTree(Http.getAsAdmin("http://127.0.0.1:" + gatewayB.getEnvironment().getProperty("local.management.port")
					+ "/actuator/inference").body())
			.path("dispatchSharing");

		assertThat(sharing.path("applied").asLong()).isPositive();
		assertThat(sharing.path("received").asLong()).isGreaterThanOrEqualTo(sharing.path("applied").asLong());
		assertThat(sharing.path("publishFailures").asLong()).isZero();
	}

	private static DispatchSharing sharing(ConfigurableApplicationContext gateway) {
		return gateway.getBean(DispatchSharing.class);
	}

	/** The {@code host:port} of the pod that served a chat completion sent through {@code gateway}. */
	private static String served(ConfigurableApplicationContext gateway, String system, String question) {
		String port = gateway.getEnvironment().getProperty("local.server.port");
		String body = "{\"model\":\"llama\",\"max_tokens\":2,\"messages\":[{\"role\":\"system\",\"content\":\"" + system
				+ "\"},{\"role\":\"user\",\"content\":\"" + question + "\"}]}";
		HttpResponse<String> response = Http.send(HttpRequest
			.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/chat/completions"))
			.header("Content-Type", "application/json")
			.timeout(Duration.ofSeconds(60))
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return response.headers().firstValue("x-infergate-endpoint").orElseThrow();
	}

	/** About 2,000 characters, different for every {@code team}. */
	private static String systemPrompt(String team) {
		StringBuilder prompt = new StringBuilder("You answer for " + team + ". ");
		for (int rule = 0; prompt.length() < 2000; rule++) {
			prompt.append("Rule ").append(rule).append(" of ").append(team).append(": be brief and exact. ");
		}
		return prompt.toString();
	}
}
