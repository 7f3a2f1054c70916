package io.infergate.gateway.ledger;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.routing.auth.ApiKeyHash;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code GET /admin/api/usage} on the management port, against the embedded default database and a simulated pod:
 * streamed and JSON requests of two keys of two tenants, summed per tenant, key and model, in JSON and CSV, the same
 * before and after the ledger has written them (what is not written yet is in the answer, what is written counts
 * once), with the budgets; bad parameters answer 400.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"infergate.flow-control.enabled=false", "infergate.auth.enabled=true",
				"infergate.auth.keys.alpha.tenant=research", "infergate.auth.keys.beta.tenant=support",
				"infergate.auth.tenants.research.limits.budget.amount=10",
				"infergate.auth.tenants.research.limits.budget.period=month",
				"infergate.models.ledgered.pool=llama", "infergate.models.ledgered.target-model=llama",
				"infergate.models.ledgered.price.input=0", "infergate.models.ledgered.price.output=1000",
				"infergate.usage.ledger.flush-interval=300ms",
				"spring.datasource.url=jdbc:h2:mem:usage-api;DB_CLOSE_DELAY=-1" })
class UsageApiTests extends SimulatedPods {

	static final String ALPHA = "sk-alpha-0c1d2e3f";

	static final String BETA = "sk-beta-4a5b6c7d";

	static SimulatedModelServer pod;

	@Autowired
	UsageLedger ledger;

	@DynamicPropertySource
	static void pool(DynamicPropertyRegistry registry) {
		pod = sims.start("llama");
		registry.add("infergate.pools.llama.endpoints", pod::baseUrl);
		registry.add("infergate.auth.keys.alpha.sha256", () -> ApiKeyHash.sha256Hex(ALPHA));
		registry.add("infergate.auth.keys.beta.sha256", () -> ApiKeyHash.sha256Hex(BETA));
	}

	@BeforeEach
	void ready() {
		awaitReady("llama");
	}

	@Test
	void sumsEachTenantKeyAndModelIncludingWhatIsNotWrittenYetAndCountsWhatIsWrittenOnce() {
		Instant start = Instant.now();
		chat(ALPHA, false, 10);
		chat(ALPHA, true, 20);
		chat(BETA, false, 5);

		JsonNode early = usage("from=" + start.minusSeconds(120) + "&group-by=tenant,key,model");
		await().atMost(Duration.ofSeconds(10)).until(() -> ledger.unwritten().isEmpty());
		JsonNode late = usage("from=" + start.minusSeconds(120) + "&group-by=tenant,key,model");

		for (JsonNode answer : new JsonNode[] { early, late }) {
			assertThat(answer.get("currency").asString()).isEqualTo("USD");
			JsonNode rows = answer.get("rows");
			assertThat(rows).hasSize(2);
			JsonNode alpha = rows.get(0);
			assertThat(alpha.get("tenant").asString()).isEqualTo("research");
			assertThat(alpha.get("key").asString()).isEqualTo("alpha");
			assertThat(alpha.get("model").asString()).isEqualTo("ledgered");
			assertThat(alpha.get("requests").asLong()).isEqualTo(2);
			assertThat(alpha.get("outputTokens").asLong()).isEqualTo(30);
			assertThat(alpha.get("inputTokens").asLong()).isPositive();
			assertThat(alpha.get("cost").asDouble()).isEqualTo(0.03);
			JsonNode beta = rows.get(1);
			assertThat(beta.get("key").asString()).isEqualTo("beta");
			assertThat(beta.get("cost").asDouble()).isEqualTo(0.005);
		}
		assertThat(early.get("budgets").get(0).get("name").asString()).isEqualTo("tenant:research");
		assertThat(late.get("budgets").get(0).get("spent").asDouble()).isEqualTo(0.03);

		JsonNode perTenant = usage("from=" + start.minusSeconds(120) + "&group-by=tenant&interval=hour");
		assertThat(perTenant.get("rows")).allSatisfy((row) -> {
			assertThat(row.get("key").isNull()).isTrue();
			assertThat(row.get("time").asString()).endsWith(":00:00Z");
		});
		HttpResponse<String> csv = Http.getAsAdmin(managementUrl("/admin/api/usage?group-by=key&format=csv&from="
				+ start.minusSeconds(120)));
		assertThat(csv.headers().firstValue("content-type").orElseThrow()).startsWith("text/csv");
		assertThat(csv.body()).startsWith("tenant,key,model,requests,input_tokens,cached_input_tokens,output_tokens,cost,currency\r\n")
			.contains(",alpha,,2,").contains(",0.03,USD\r\n").contains(",beta,,1,");
	}

	@Test
	void badParametersAnswer400NamingThem() {
		assertThat(error("from=yesterday")).contains("from: an ISO-8601 instant");
		assertThat(error("group-by=tenant,colour")).contains("group-by: each of tenant, key, model, got 'colour'");
		assertThat(error("interval=week")).contains("interval: one of minute, hour, day");
		assertThat(error("from=2026-12-02T00:00:00Z&to=2026-12-01T00:00:00Z")).contains("from must be before to");
		assertThat(Http.get(managementUrl("/admin/api/usage")).statusCode()).as("without credentials").isEqualTo(401);
	}

	private String error(String query) {
		HttpResponse<String> response = Http.getAsAdmin(managementUrl("/admin/api/usage?" + query));
		assertThat(response.statusCode()).isEqualTo(400);
		return JsonMapper.shared().readTree(response.body()).at("/error/message").asString();
	}

	private JsonNode usage(String query) {
		HttpResponse<String> response = Http.getAsAdmin(managementUrl("/admin/api/usage?" + query));
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return JsonMapper.shared().readTree(response.body());
	}

	private void chat(String secret, boolean stream, int maxTokens) {
		HttpResponse<String> response = Http.send(HttpRequest.newBuilder(URI.create(url("/v1/chat/completions")))
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/json")
			.header("Authorization", "Bearer " + secret)
			.POST(HttpRequest.BodyPublishers.ofString(Http.chat("ledgered", "Count me in.", stream, maxTokens)))
			.build());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
	}
}
