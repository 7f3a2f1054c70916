package io.infergate.gateway;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.routing.auth.ApiKeyHash;
import io.infergate.gateway.route.InferenceRoute;
import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.Sims;
import io.infergate.routing.limits.RedisServer;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two gateway replicas sharing their limits through one real Redis, in front of one simulated pod: a key's limit
 * holds across both, 429s say exactly when to retry, and when Redis stops and comes back the fail-open replica
 * keeps serving on its own limits, the fail-close replica answers 503, and both share again.
 */
class SharedRedisLimitsTests {

	static final String BURST_SECRET = "sk-burst-31d9a2";

	static final String OUTAGE_SECRET = "sk-outage-8c44e0";

	static final String AFTER_SECRET = "sk-after-52b7f1";

	static final String PROBE_SECRET = "sk-probe-0aa913";

	static final String LARGE_SECRET = "sk-large-7e20c4";

	static final Pattern REFUSAL = Pattern.compile("\\{\"error\":\\{\"message\":\"Rate limit reached for llama on "
			+ "requests per min \\(RPM\\): Limit 30, Used 30, Requested 1\\. Please try again in ([0-9.]+)(ms|s)\\.\","
			+ "\"type\":\"requests\",\"param\":null,\"code\":\"rate_limit_exceeded\"}}");

	static RedisServer redis;

	static Sims sims = new Sims();

	static SimulatedModelServer pod;

	static ConfigurableApplicationContext failOpen;

	static ConfigurableApplicationContext failClose;

	@BeforeAll
	static void start() {
		redis = new RedisServer();
		pod = sims.start("llama");
		failOpen = replica("fail-open");
		failClose = replica("fail-close");
		for (ConfigurableApplicationContext replica : List.of(failOpen, failClose)) {
			EndpointRegistry registry = replica.getBean(EndpointRegistry.class);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> registry.pool("p").endpoints().stream().allMatch(Endpoint::isReady));
		}
	}

	@AfterAll
	static void stop() {
		failOpen.close();
		failClose.close();
		sims.close();
		redis.close();
	}

	private static ConfigurableApplicationContext replica(String onStoreFailure) {
		return new SpringApplicationBuilder(InfergateGatewayApplication.class, DispatchThreads.class).run("--server.port=0",
				"--management.server.port=0", "--infergate.demo.enabled=false",
				"--infergate.pools.p.endpoints=" + pod.baseUrl(), "--infergate.rate-limits.store=redis",
				"--infergate.redis.url=" + redis.url(),
				"--infergate.rate-limits.on-store-failure=" + onStoreFailure, "--infergate.auth.enabled=true",
				key("burst", BURST_SECRET), "--infergate.auth.keys.burst.limits.rpm=30", key("outage", OUTAGE_SECRET),
				"--infergate.auth.keys.outage.limits.rpm=4", key("after", AFTER_SECRET),
				"--infergate.auth.keys.after.limits.rpm=4", key("probe", PROBE_SECRET),
				"--infergate.auth.keys.probe.limits.rpm=100000", key("large", LARGE_SECRET),
				"--infergate.auth.keys.large.limits.rpm=600");
	}

	private static String key(String id, String secret) {
		return "--infergate.auth.keys." + id + ".sha256=" + ApiKeyHash.sha256Hex(secret);
	}

	private static HttpResponse<String> chat(ConfigurableApplicationContext replica, String secret) {
		int port = ((WebServerApplicationContext) replica).getWebServer().getPort();
		return Http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/chat/completions"))
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/json")
			.header("Authorization", "Bearer " + secret)
			.POST(HttpRequest.BodyPublishers.ofString(Http.chat("llama", "hi", false, 1)))
			.build());
	}

	@Test
	void aRequestAdmittedThroughRedisGoesOnOnItsConnectionsEventLoopNotOnTheRedisClients() {
		DispatchThreads.names.clear();

		assertThat(chat(failOpen, PROBE_SECRET).statusCode()).isEqualTo(200);

		assertThat(DispatchThreads.names).singleElement().asString().startsWith("reactor-http-");
	}

	/** Records the thread each request reaches dispatch on. */
	@Configuration(proxyBeanMethods = false)
	static class DispatchThreads {

		static final List<String> names = new CopyOnWriteArrayList<>();

		@Bean
		Recorder dispatchThreadRecorder() {
			return new Recorder();
		}

		static class Recorder implements GlobalFilter, Ordered {

			@Override
			public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
				names.add(Thread.currentThread().getName());
				return chain.filter(exchange);
			}

			@Override
			public int getOrder() {
				return InferenceRoute.DISPATCH;
			}
		}
	}

	@Test
	void aKeyLimitedTo30RpmGets30AcrossBothReplicasPlusWhatRefillsAnd429sSayWhenToRetry() {
		List<HttpResponse<String>> refused = new ArrayList<>();
		int accepted = 0;
		long start = System.nanoTime();
		for (int i = 0; i < 60; i++) {
			HttpResponse<String> response = chat((i % 2 == 0) ? failOpen : failClose, BURST_SECRET);
			if (response.statusCode() == 200) {
				accepted++;
			}
			else {
				assertThat(response.statusCode()).as(response.body()).isEqualTo(429);
				refused.add(response);
			}
		}
		double elapsedSeconds = (System.nanoTime() - start) / 1e9;

		// 30 per minute refill one request every 2 s
		assertThat(accepted).isBetween(30, 30 + 1 + (int) (elapsedSeconds / 2));
		for (HttpResponse<String> response : refused) {
			long retryMillis = Long.parseLong(response.headers().firstValue("retry-after-ms").orElseThrow());
			assertThat(retryMillis).isBetween(1L, 2000L);
			assertThat(response.headers().firstValue("Retry-After")).hasValue(Long.toString((retryMillis + 999) / 1000));
			assertThat(response.headers().firstValue("x-infergate-dropped-reason")).hasValue("rate-limited");
			assertThat(response.headers().firstValue("x-ratelimit-limit-requests")).hasValue("30");
			assertThat(response.headers().firstValue("x-ratelimit-remaining-requests")).hasValue("0");
			assertThat(response.headers().firstValue("x-ratelimit-reset-requests").orElseThrow()).matches("[0-9.]+(ms|s)|1m[0-9.]+s");
			Matcher message = REFUSAL.matcher(response.body());
			assertThat(message.matches()).as(response.body()).isTrue();
			double wait = Double.parseDouble(message.group(1)) * (message.group(2).equals("s") ? 1000 : 1);
			assertThat(wait).isCloseTo(retryMillis, org.assertj.core.data.Offset.offset(1.0));
		}
	}

	@Test
	void aLimitLargeEnoughForAllowancesStillAdmitsExactlyItsSizeAcrossBothReplicasWithFewerRedisCalls() {
		long callsBefore = scriptCalls();
		long start = System.nanoTime();
		int accepted = 0;
		List<Long> remaining = new ArrayList<>();
		for (int i = 0; i < 700; i++) {
			HttpResponse<String> response = chat((i % 2 == 0) ? failOpen : failClose, LARGE_SECRET);
			if (response.statusCode() == 200) {
				accepted++;
				assertThat(response.headers().firstValue("x-ratelimit-limit-requests")).hasValue("600");
				remaining.add(Long.parseLong(response.headers().firstValue("x-ratelimit-remaining-requests").orElseThrow()));
			}
			else {
				assertThat(response.statusCode()).as(response.body()).isEqualTo(429);
				assertThat(response.headers().firstValue("x-ratelimit-remaining-requests")).hasValue("0");
			}
		}
		double elapsedSeconds = (System.nanoTime() - start) / 1e9;
		long calls = scriptCalls() - callsBefore;

		// 600 a minute, 1% of it (6) taken at a time by each replica: never more than 600 and what refilled (10 a
		// second), and none lost in an allowance
		assertThat(accepted).isBetween(600, 600 + 1 + (int) (elapsedSeconds * 10));
		assertThat(remaining).allMatch((left) -> left >= 0 && left < 600);
		// far from the limit one call admits several requests; each of the 100 or so refusals is a call of its own
		assertThat(calls).isLessThan(500);
	}

	/** How many times Redis has run a script, from its own command counts. */
	private static long scriptCalls() {
		io.lettuce.core.RedisClient client = io.lettuce.core.RedisClient.create(redis.url());
		try (var connection = client.connect()) {
			long calls = 0;
			for (String line : connection.sync().info("commandstats").split("\r?\n")) {
				if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
					String count = line.substring(line.indexOf("calls=") + 6);
					calls += Long.parseLong(count.substring(0, count.indexOf(',')));
				}
			}
			return calls;
		}
		finally {
			client.shutdown();
		}
	}

	@Test
	void whenRedisStopsFailOpenServesOnLocalLimitsFailCloseAnswers503AndOnceItIsBackBothShareAgain() {
		redis.stop();
		List<Integer> failOpenStatuses = new ArrayList<>();
		List<Integer> failCloseStatuses = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			failOpenStatuses.add(chat(failOpen, OUTAGE_SECRET).statusCode());
			failCloseStatuses.add(chat(failClose, OUTAGE_SECRET).statusCode());
		}
		HttpResponse<String> unavailable = chat(failClose, OUTAGE_SECRET);
		redis.restart();
		awaitSharedStoreAnswers(failOpen);
		awaitSharedStoreAnswers(failClose);
		int acceptedAfter = 0;
		for (int i = 0; i < 8; i++) {
			if (chat((i % 2 == 0) ? failOpen : failClose, AFTER_SECRET).statusCode() == 200) {
				acceptedAfter++;
			}
		}

		// this replica's own limit of 4, then 429
		assertThat(failOpenStatuses).containsExactly(200, 200, 200, 200, 429, 429);
		assertThat(failCloseStatuses).containsOnly(503);
		assertThat(unavailable.body()).contains("\"code\":\"rate_limit_store_unavailable\"");
		assertThat(acceptedAfter).isEqualTo(4);
	}

	/** Waits until a request on {@code replica} is decided by Redis rather than by its way out. */
	private static void awaitSharedStoreAnswers(ConfigurableApplicationContext replica) {
		MeterRegistry meters = replica.getBean(MeterRegistry.class);
		await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
			double before = meters.get("infergate.rate.limit.store.failures").counter().count();
			int status = chat(replica, PROBE_SECRET).statusCode();
			return status == 200 && meters.get("infergate.rate.limit.store.failures").counter().count() == before;
		});
	}
}
