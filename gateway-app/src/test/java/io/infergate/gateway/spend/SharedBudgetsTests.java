package io.infergate.gateway.spend;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import io.infergate.gateway.InfergateGatewayApplication;
import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.Sims;
import io.infergate.routing.auth.ApiKeyHash;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.limits.RedisServer;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Budgets across two gateway replicas sharing one real Redis, in front of a simulated pod that reports its usage over
 * HTTP. The model costs 1,000 per million output tokens and nothing for input, and the pod generates exactly
 * {@code max_tokens}, so a request with {@code max_tokens: 10} holds and costs exactly 0.01: a budget of 0.05 admits
 * exactly five, whichever replica they reach and however many run at once.
 */
class SharedBudgetsTests {

	static final String EXACT = "sk-exact-5d0c11";

	static final String STREAMS = "sk-streams-7a1e42";

	static final String SOFT = "sk-soft-39b8f0";

	static RedisServer redis;

	static Sims sims = new Sims();

	static SimulatedModelServer pod;

	static HttpServer webhook;

	static final List<String> events = new CopyOnWriteArrayList<>();

	static final AtomicInteger webhookCalls = new AtomicInteger();

	static ConfigurableApplicationContext one;

	static ConfigurableApplicationContext two;

	@BeforeAll
	static void start() throws IOException {
		redis = new RedisServer();
		pod = sims.start("llama");
		webhook = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		webhook.createContext("/budget", (exchange) -> {
			String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
			// the first attempt fails: the gateway must try again
			int status = (webhookCalls.incrementAndGet() == 1) ? 503 : 204;
			if (status == 204) {
				events.add(body);
			}
			exchange.sendResponseHeaders(status, -1);
			exchange.close();
		});
		webhook.start();
		one = replica();
		two = replica();
	}

	@AfterAll
	static void stop() {
		one.close();
		two.close();
		webhook.stop(0);
		sims.close();
		redis.close();
	}

	private static ConfigurableApplicationContext replica() {
		ConfigurableApplicationContext replica = new SpringApplicationBuilder(InfergateGatewayApplication.class).run(
				"--server.port=0", "--management.server.port=0", "--infergate.demo.enabled=false",
				"--infergate.flow-control.enabled=false", "--infergate.pools.p.endpoints=" + pod.baseUrl(),
				"--infergate.models.priced.pool=p", "--infergate.models.priced.target-model=llama",
				"--infergate.models.priced.price.input=0", "--infergate.models.priced.price.output=1000",
				"--infergate.rate-limits.store=redis", "--infergate.redis.url=" + redis.url(),
				"--infergate.auth.enabled=true", key("exact", EXACT), "--infergate.auth.keys.exact.tenant=exact",
				"--infergate.auth.keys.exact.limits.budget.amount=0.05",
				"--infergate.auth.keys.exact.limits.budget.period=day", key("streams", STREAMS),
				"--infergate.auth.keys.streams.tenant=streams",
				"--infergate.auth.tenants.streams.limits.budget.amount=0.03",
				"--infergate.auth.tenants.streams.limits.budget.period=rolling-24h", key("soft", SOFT),
				"--infergate.auth.keys.soft.limits.budget.amount=0.02",
				"--infergate.auth.keys.soft.limits.budget.mode=soft",
				"--infergate.usage.budget-webhook.url=http://127.0.0.1:" + webhook.getAddress().getPort() + "/budget",
				"--infergate.usage.budget-webhook.first-retry=100ms");
		EndpointRegistry registry = replica.getBean(EndpointRegistry.class);
		await().atMost(Duration.ofSeconds(30))
			.until(() -> registry.pool("p").endpoints().stream().allMatch(Endpoint::isReady));
		return replica;
	}

	private static String key(String id, String secret) {
		return "--infergate.auth.keys." + id + ".sha256=" + ApiKeyHash.sha256Hex(secret);
	}

	private static HttpResponse<String> chat(ConfigurableApplicationContext replica, String secret, boolean stream) {
		int port = ((WebServerApplicationContext) replica).getWebServer().getPort();
		return Http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/chat/completions"))
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/json")
			.header("Authorization", "Bearer " + secret)
			.POST(HttpRequest.BodyPublishers.ofString(Http.chat("priced", "How much is this?", stream, 10)))
			.build());
	}

	@Test
	void twentyConcurrentRequestsOnTwoReplicasAgainstABudgetForFiveAdmitFiveAndRefuseTheRestAsInsufficientQuota()
			throws Exception {
		ExecutorService clients = Executors.newFixedThreadPool(20);
		List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			ConfigurableApplicationContext replica = (i % 2 == 0) ? one : two;
			responses.add(CompletableFuture.supplyAsync(() -> chat(replica, EXACT, false), clients));
		}
		List<HttpResponse<String>> done = new ArrayList<>();
		for (CompletableFuture<HttpResponse<String>> response : responses) {
			done.add(response.join());
		}
		clients.shutdown();

		assertThat(done.stream().filter((r) -> r.statusCode() == 200)).hasSize(5);
		List<HttpResponse<String>> refused = done.stream().filter((r) -> r.statusCode() != 200).toList();
		assertThat(refused).hasSize(15).allSatisfy((response) -> {
			assertThat(response.statusCode()).isEqualTo(429);
			assertThat(response.headers().firstValue("x-infergate-dropped-reason")).hasValue("budget-exhausted");
			assertThat(response.headers().firstValue("x-should-retry")).hasValue("false");
			assertThat(response.headers().firstValue("content-type").orElseThrow()).startsWith("application/json");
			JsonNode error = JsonMapper.shared().readTree(response.body()).get("error");
			assertThat(error.get("type").asString()).isEqualTo("insufficient_quota");
			assertThat(error.get("code").asString()).isEqualTo("insufficient_quota");
			assertThat(error.get("param").isNull()).isTrue();
			assertThat(error.get("message").asString()).startsWith("Budget exhausted for key 'exact': 0.05 USD per day, ")
				.contains("this request may cost up to 0.01 USD.")
				.contains("It resets at ");
		});
		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
			HttpResponse<String> after = chat(one, EXACT, false);
			assertThat(after.statusCode()).isEqualTo(429);
			assertThat(after.body()).contains("0.05 USD spent;").doesNotContain("held by requests in flight");
		});
	}

	@Test
	void streamedAndJsonResponsesAreChargedWhatTheirUsageCostAgainstTheTenantsRollingBudget() {
		HttpResponse<String> streamed = chat(one, STREAMS, true);
		HttpResponse<String> json = chat(two, STREAMS, false);
		HttpResponse<String> streamedAgain = chat(two, STREAMS, true);

		assertThat(List.of(streamed, json, streamedAgain)).allSatisfy((r) -> assertThat(r.statusCode()).isEqualTo(200));
		assertThat(streamed.body()).contains("data: [DONE]").doesNotContain("\"usage\"");
		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
			HttpResponse<String> refused = chat(one, STREAMS, true);
			assertThat(refused.statusCode()).isEqualTo(429);
			assertThat(refused.body()).contains("Budget exhausted for tenant 'streams': 0.03 USD per 24 hours (rolling), 0.03 USD spent;")
				.contains("Spend starts to leave it at ");
		});
	}

	@Test
	void aSoftBudgetAdmitsEverythingAndIsReportedOnceByLogMetricAndAWebhookThatIsTriedAgain() {
		for (int i = 0; i < 4; i++) {
			assertThat(chat((i % 2 == 0) ? one : two, SOFT, false).statusCode()).isEqualTo(200);
		}

		await().atMost(Duration.ofSeconds(10)).until(() -> events.size() == 1);
		JsonNode event = JsonMapper.shared().readTree(events.get(0));
		assertThat(event.get("event").asString()).isEqualTo("budget-reached");
		assertThat(event.get("scope").asString()).isEqualTo("key");
		assertThat(event.get("subject").asString()).isEqualTo("soft");
		assertThat(event.get("mode").asString()).isEqualTo("soft");
		assertThat(event.get("amount").asDouble()).isEqualTo(0.02);
		assertThat(event.get("spent").asDouble()).isEqualTo(0.02);
		assertThat(event.get("currency").asString()).isEqualTo("USD");
		assertThat(webhookCalls).hasValue(2);
		assertThat(reached(one) + reached(two)).isEqualTo(1);
	}

	private static double reached(ConfigurableApplicationContext replica) {
		Counter counter = replica.getBean(MeterRegistry.class)
			.find("infergate.budget.reached")
			.tags("scope", "key", "subject", "soft")
			.counter();
		return (counter != null) ? counter.count() : 0;
	}
}
