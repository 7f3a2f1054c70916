package io.infergate.gateway.picker;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import io.infergate.gateway.picker.EnvoyDataPlane.RequestAnswer;
import io.infergate.gateway.support.GatewayContexts;
import io.infergate.gateway.support.RedisServer;
import io.infergate.gateway.support.Sims;
import io.infergate.routing.auth.ApiKeyHash;
import io.infergate.routing.replica.DispatchSharing;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two picker replicas (the picker alone, as in a Deployment of two) in front of the same four simulated pods,
 * sharing state over a real Redis as the gateway's replicas do: dispatches, so a prefix group's second request on
 * the other replica goes where the first replica sent the first, and limits, so a key's requests per minute are
 * counted across both.
 */
class EndpointPickerReplicasTests {

	private static final Duration PATIENCE = Duration.ofSeconds(30);

	private static final String KEY = "sk-shared-0123456789";

	private static final Sims sims = new Sims();

	private static final List<SimulatedModelServer> pods = new ArrayList<>();

	private static RedisServer redis;

	private static ConfigurableApplicationContext pickerA;

	private static ConfigurableApplicationContext pickerB;

	@BeforeAll
	static void start() {
		redis = RedisServer.started();
		for (int i = 0; i < 4; i++) {
			pods.add(sims.start("llama"));
		}
		pickerA = picker();
		pickerB = picker();
	}

	@AfterAll
	static void stop() {
		for (ConfigurableApplicationContext picker : new ConfigurableApplicationContext[] { pickerA, pickerB }) {
			if (picker != null) {
				picker.close();
			}
		}
		sims.close();
		if (redis != null) {
			redis.close();
		}
	}

	/** A replica whose profile weighs the prefix index alone: without the other's dispatches it could pick any pod. */
	private static ConfigurableApplicationContext picker() {
		return GatewayContexts.start(
				"--infergate.pools.shared.endpoints=" + Sims.urls(pods.toArray(SimulatedModelServer[]::new)),
				"--infergate.pools.shared.profile=prefix-only", "--infergate.models.llama.pool=shared",
				"--infergate.models.llama.target-model=llama", "--infergate.gateway.enabled=false",
				"--infergate.endpoint-picker.enabled=true", "--infergate.endpoint-picker.port=0",
				"--infergate.endpoint-picker.health-port=0",
				"--infergate.scheduling.dispatch-sharing.transport=redis", "--infergate.redis.url=" + redis.url(),
				"--infergate.rate-limits.store=redis", "--infergate.auth.enabled=true",
				"--infergate.auth.keys.shared.sha256=" + ApiKeyHash.sha256Hex(KEY),
				"--infergate.auth.keys.shared.limits.rpm=7");
	}

	@Test
	void aGroupsSecondRequestOnTheOtherReplicaGoesWhereTheFirstWentAndLimitsCountAcrossBoth() throws Exception {
		try (EnvoyDataPlane envoyA = envoy(pickerA); EnvoyDataPlane envoyB = envoy(pickerB)) {
			for (int group = 0; group < 3; group++) {
				EnvoyDataPlane first = (group % 2 == 0) ? envoyA : envoyB;
				EnvoyDataPlane second = (first == envoyA) ? envoyB : envoyA;
				ConfigurableApplicationContext secondPicker = (first == envoyA) ? pickerB : pickerA;
				long appliedBefore = sharing(secondPicker).stats().applied();
				String system = systemPrompt("team-" + group);

				RequestAnswer chosen = served(first, system, "What is the first rule?");
				await().atMost(PATIENCE).until(() -> sharing(secondPicker).stats().applied() > appliedBefore);
				RequestAnswer followed = served(second, system, "And the second one?");

				assertThat(followed.destination()).as("group %d", group).isEqualTo(chosen.destination());
			}
			// 6 of the key's 7 requests a minute are spent, 3 on each replica: one more is admitted, then 429
			assertThat(served(envoyA, systemPrompt("last"), "One more?").isImmediate()).isFalse();
			RequestAnswer refused = send(envoyB, systemPrompt("last"), "And another?").awaitRequestAnswer(false);
			assertThat(refused.isImmediate()).isTrue();
			assertThat(refused.immediateStatus()).isEqualTo(429);
			assertThat(refused.immediateBody()).contains("\"type\":\"requests\"");
		}
	}

	private static EnvoyDataPlane envoy(ConfigurableApplicationContext picker) {
		return new EnvoyDataPlane(picker.getBean(PickerServer.class).port());
	}

	private static DispatchSharing sharing(ConfigurableApplicationContext picker) {
		return picker.getBean(DispatchSharing.class);
	}

	/** Routes a chat through the picker and has its pod serve it, as Envoy would. */
	private static RequestAnswer served(EnvoyDataPlane envoy, String system, String question) throws Exception {
		EnvoyDataPlane.Stream stream = send(envoy, system, question);
		RequestAnswer answer = stream.awaitRequestAnswer(false);
		if (!answer.isImmediate()) {
			assertThat(stream.forward("/v1/chat/completions", answer).status()).isEqualTo(200);
		}
		return answer;
	}

	private static EnvoyDataPlane.Stream send(EnvoyDataPlane envoy, String system, String question) {
		String body = "{\"model\":\"llama\",\"max_tokens\":2,\"messages\":[{\"role\":\"system\",\"content\":\"" + system
				+ "\"},{\"role\":\"user\",\"content\":\"" + question + "\"}]}";
		return envoy.open()
			.requestHeaders("/v1/chat/completions", Map.of("authorization", "Bearer " + KEY), null, false)
			.requestBody(body.getBytes(StandardCharsets.UTF_8), true);
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
