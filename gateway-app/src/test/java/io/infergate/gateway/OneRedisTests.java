package io.infergate.gateway;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import io.infergate.routing.auth.ApiKeyHash;
import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.RedisServer;
import io.infergate.gateway.support.Sims;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.redis.SharedRedisClient;
import io.infergate.routing.replica.DispatchChannel;
import io.infergate.routing.replica.RedisDispatchChannel;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One Redis for the limits and dispatch sharing, against a real redis-server: {@code infergate.redis.url} alone
 * serves both over one client, and the deprecated {@code infergate.rate-limits.redis-url} still works with a
 * warning.
 */
@ExtendWith(OutputCaptureExtension.class)
class OneRedisTests {

	static final String SECRET = "sk-one-redis-5d1c2e";

	static final Duration PATIENCE = Duration.ofSeconds(30);

	static final Sims sims = new Sims();

	static RedisServer redis;

	static SimulatedModelServer pod;

	static RedisClient observer;

	static StatefulRedisConnection<String, String> connection;

	final List<ConfigurableApplicationContext> gateways = new ArrayList<>();

	@BeforeAll
	static void start() {
		redis = RedisServer.started();
		pod = sims.start("llama");
		observer = RedisClient.create(redis.url().toString());
		connection = observer.connect();
	}

	@AfterAll
	static void stop() {
		connection.close();
		observer.shutdown();
		sims.close();
		redis.close();
	}

	@AfterEach
	void closeGateways() {
		gateways.forEach(ConfigurableApplicationContext::close);
	}

	@Test
	void theRedisUrlAloneServesTheLimitsAndDispatchSharingOverOneClient(CapturedOutput output) {
		connection.sync().flushall();
		ConfigurableApplicationContext gateway = gateway("--infergate.redis.url=" + redis.url(),
				"--infergate.scheduling.dispatch-sharing.transport=redis");
		await().atMost(PATIENCE).until(() -> gatewayConnections() == 3);

		HttpResponse<String> first = chat(gateway);
		HttpResponse<String> second = chat(gateway);

		assertThat(gateway.getBeansOfType(SharedRedisClient.class)).hasSize(1);
		// the limits' commands, and dispatch sharing's publications and subscription
		assertThat(gatewayConnections()).isEqualTo(3);
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(second.statusCode()).as("the second request within a minute, over the key's rpm of 1")
			.isEqualTo(429);
		assertThat(connection.sync().keys("infergate:rl:*")).isNotEmpty();
		assertThat(((RedisDispatchChannel) gateway.getBean(DispatchChannel.class)).isConnected()).isTrue();
		assertThat(output).doesNotContain("is deprecated: use infergate.redis.url");
	}

	@Test
	void theDeprecatedLimitsUrlStillWorksAndWarnsOnce(CapturedOutput output) {
		connection.sync().flushall();
		ConfigurableApplicationContext gateway = gateway("--infergate.rate-limits.redis-url=" + redis.url());

		HttpResponse<String> first = chat(gateway);
		HttpResponse<String> second = chat(gateway);

		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(second.statusCode()).isEqualTo(429);
		assertThat(connection.sync().keys("infergate:rl:*")).isNotEmpty();
		assertThat(output.getOut()
			.split("infergate.rate-limits.redis-url is deprecated: use infergate.redis.url", -1)).hasSize(2);
	}

	private ConfigurableApplicationContext gateway(String... redisArgs) {
		List<String> args = new ArrayList<>(List.of("--server.port=0", "--management.server.port=0",
				"--infergate.demo.enabled=false", "--infergate.pools.p.endpoints=" + pod.baseUrl(),
				"--infergate.rate-limits.store=redis", "--infergate.auth.enabled=true",
				"--infergate.auth.keys.one.sha256=" + ApiKeyHash.sha256Hex(SECRET),
				"--infergate.auth.keys.one.limits.rpm=1", "--spring.main.banner-mode=off"));
		args.addAll(Arrays.asList(redisArgs));
		ConfigurableApplicationContext gateway = new SpringApplicationBuilder(InfergateGatewayApplication.class)
			.run(args.toArray(String[]::new));
		gateways.add(gateway);
		EndpointRegistry registry = gateway.getBean(EndpointRegistry.class);
		await().atMost(PATIENCE).until(() -> registry.pool("p").endpoints().stream().allMatch(Endpoint::isReady));
		return gateway;
	}

	private static HttpResponse<String> chat(ConfigurableApplicationContext gateway) {
		int port = ((WebServerApplicationContext) gateway).getWebServer().getPort();
		return Http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/chat/completions"))
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/json")
			.header("Authorization", "Bearer " + SECRET)
			.POST(HttpRequest.BodyPublishers.ofString(Http.chat("llama", "hi", false, 1)))
			.build());
	}

	/** The connections Redis lists under the gateway's client name. */
	private static long gatewayConnections() {
		return Arrays.stream(connection.sync().clientList().split("\n"))
			.filter((line) -> line.contains(" name=" + SharedRedisClient.CLIENT_NAME + " "))
			.count();
	}
}
