package io.infergate.gateway;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.context.ConfigurableApplicationContext;

import io.infergate.gateway.support.GatewayContexts;
import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.RedisServer;
import io.infergate.gateway.support.Sims;
import io.infergate.routing.replica.DispatchSharing;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.config.SchedulingProfiles;
import io.infergate.routing.scheduling.scorer.SessionAffinityScorer;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Four gateway replicas, each a full gateway context with its own session map, in front of the same four simulated
 * pods, sharing their dispatches over a real Redis: consecutive turns of a session sent to different replicas reach
 * the session's pod; with Redis down every turn is still answered.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SessionSharingTests {

	private static final Duration PATIENCE = Duration.ofSeconds(30);

	private static final int REPLICAS = 4;

	private static final Sims sims = new Sims();

	private static final List<SimulatedModelServer> pods = new ArrayList<>();

	private static final List<ConfigurableApplicationContext> gateways = new ArrayList<>();

	private static RedisServer redis;

	@BeforeAll
	static void start() {
		redis = RedisServer.started();
		for (int i = 0; i < 4; i++) {
			pods.add(sims.start("llama"));
		}
		for (int i = 0; i < REPLICAS; i++) {
			gateways.add(gateway());
		}
	}

	@AfterAll
	static void stop() {
		gateways.forEach(ConfigurableApplicationContext::close);
		sims.close();
		if (redis != null) {
			redis.close();
		}
	}

	/** A replica whose pool routes by the shipped {@code session} profile. */
	private static ConfigurableApplicationContext gateway() {
		return GatewayContexts.start(
				"--infergate.pools.sticky.endpoints=" + Sims.urls(pods.toArray(SimulatedModelServer[]::new)),
				"--infergate.pools.sticky.profile=session",
				"--infergate.models.llama.pool=sticky", "--infergate.models.llama.target-model=llama",
				// these tests are about decisions: a scrape made late by a busy test machine must not drop a pod
				"--infergate.scheduling.saturation.staleness-threshold=5s",
				"--infergate.scheduling.dispatch-sharing.transport=redis", "--infergate.redis.url=" + redis.url());
	}

	@Test
	@Order(1)
	void aSessionsTurnsReachItsPodWhicheverReplicaTheyReach() {
		int sessions = 40;
		int turns = 5;
		Map<String, List<String>> served = new LinkedHashMap<>();
		for (int turn = 0; turn < turns; turn++) {
			for (int s = 0; s < sessions; s++) {
				String session = "conversation-" + s;
				// each turn on the next replica: no two consecutive turns of a session on the same one
				served.computeIfAbsent(session, (key) -> new ArrayList<>())
					.add(served(gateways.get((s + turn) % REPLICAS), session, "Turn " + turn + " of " + session + "?"));
			}
			awaitEveryReplicaHeardEveryDispatch();
		}

		int laterTurns = 0;
		int kept = 0;
		for (List<String> endpoints : served.values()) {
			for (int turn = 1; turn < endpoints.size(); turn++) {
				laterTurns++;
				kept += endpoints.get(turn).equals(endpoints.get(turn - 1)) ? 1 : 0;
			}
		}
		assertThat((double) kept / laterTurns).as("%d of %d later turns on their session's pod", kept, laterTurns)
			.isGreaterThanOrEqualTo(0.99);
		// the sessions did not all land on one pod: stickiness, not a pod every replica prefers
		assertThat(served.values().stream().map((endpoints) -> endpoints.get(0)).distinct().count()).isGreaterThan(1);
		for (ConfigurableApplicationContext gateway : gateways) {
			assertThat(sessionScorer(gateway).sessionCount()).isEqualTo(sessions);
			assertThat(sharing(gateway).stats().publishFailures()).isZero();
			assertThat(sharing(gateway).stats().rejected()).isZero();
		}
	}

	@Test
	@Order(2)
	void withRedisDownEveryTurnIsAnsweredAndSharingResumesWhenItIsBack() {
		redis.stop();
		try {
			// fail open: each replica routes on what it knows itself, and every turn is answered
			for (int turn = 0; turn < 3; turn++) {
				for (int s = 0; s < 8; s++) {
					served(gateways.get((s + turn) % REPLICAS), "offline-" + s, "Turn " + turn + "?");
				}
			}
		}
		finally {
			redis.restart();
		}
		// the replicas reconnect in the background; then a session started on one is found on the others again
		await().atMost(PATIENCE).pollInterval(Duration.ofMillis(500)).until(() -> {
			String session = "after-restart-" + System.nanoTime();
			String first = served(gateways.get(0), session, "First?");
			Thread.sleep(200);
			return gateways.stream().allMatch((gateway) -> first.equals(String.valueOf(sessionScorer(gateway)
				.endpointOf("sticky", session))));
		});
		String session = "resumed";
		String first = served(gateways.get(1), session, "First?");
		await().atMost(PATIENCE).until(() -> gateways.stream()
			.allMatch((gateway) -> first.equals(String.valueOf(sessionScorer(gateway).endpointOf("sticky", session)))));
		for (int replica = 0; replica < REPLICAS; replica++) {
			assertThat(served(gateways.get(replica), session, "Again?")).isEqualTo(first);
		}
	}

	/** Every replica has received every message any replica published (each hears its own echo too). */
	private static void awaitEveryReplicaHeardEveryDispatch() {
		long published = gateways.stream().mapToLong((gateway) -> sharing(gateway).stats().published()).sum();
		await().atMost(PATIENCE)
			.until(() -> gateways.stream().allMatch((gateway) -> sharing(gateway).stats().received() >= published));
	}

	private static DispatchSharing sharing(ConfigurableApplicationContext gateway) {
		return gateway.getBean(DispatchSharing.class);
	}

	private static SessionAffinityScorer sessionScorer(ConfigurableApplicationContext gateway) {
		return (SessionAffinityScorer) gateway.getBean(SchedulingProfiles.class)
			.plugins(EndpointScorer.class)
			.get(SessionAffinityScorer.NAME);
	}

	/** The {@code host:port} of the pod that served a turn of {@code session} sent through {@code gateway}. */
	private static String served(ConfigurableApplicationContext gateway, String session, String question) {
		String body = "{\"model\":\"llama\",\"max_tokens\":2,\"messages\":[{\"role\":\"user\",\"content\":\"" + question
				+ "\"}]}";
		HttpResponse<String> response = Http.send(HttpRequest
			.newBuilder(URI.create(GatewayContexts.url(gateway, "/v1/chat/completions")))
			.header("Content-Type", "application/json")
			.header("x-session-id", session)
			.timeout(Duration.ofSeconds(60))
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return response.headers().firstValue("x-infergate-endpoint").orElseThrow();
	}
}
