package io.infergate.gateway.spend;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.observe.SpendMeters;
import io.infergate.gateway.support.AccessLines;
import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.routing.auth.ApiKeyHash;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/**
 * Each request's cost, from the usage a simulated pod reports over HTTP and its model's price: in the access log and
 * in {@value SpendMeters#COST} by model, tenant and key, for JSON and streamed responses, with cached prompt tokens at
 * their own price.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false", "infergate.access-log.enabled=true",
				"infergate.flow-control.enabled=false", "infergate.auth.enabled=true",
				"infergate.auth.keys.team-a.tenant=a", "infergate.models.priced.pool=llama",
				"infergate.models.priced.target-model=llama", "infergate.models.priced.price.input=2.0",
				"infergate.models.priced.price.cached-input=0.5", "infergate.models.priced.price.output=8.0",
				"infergate.models.free.pool=llama", "infergate.models.free.target-model=llama",
				"infergate.usage.currency=EUR" })
class RequestCostTests extends SimulatedPods {

	private static final String SECRET = "sk-team-a-0123456789abcdef";

	/** Long enough that a second request finds whole 16-token blocks of it in the pod's prefix cache. */
	private static final String PROMPT = "Tell me, in a few words, how a prefix cache saves prefill time when many "
			+ "requests share the same long system prompt and only their final questions differ from each other.";

	static SimulatedModelServer pod;

	@Autowired
	MeterRegistry registry;

	@DynamicPropertySource
	static void pool(DynamicPropertyRegistry registry) {
		pod = sims.start("llama");
		registry.add("infergate.pools.llama.endpoints", pod::baseUrl);
		registry.add("infergate.auth.keys.team-a.sha256", () -> ApiKeyHash.sha256Hex(SECRET));
	}

	@BeforeEach
	void ready() {
		awaitReady("llama");
	}

	@Test
	void aJsonResponseCostsItsUsageAtTheModelsPriceAndCachedTokensAtTheirs(CapturedOutput output) {
		String first = chat("priced", PROMPT + " First.", false, "").body();
		String second = chat("priced", PROMPT + " Second.", false, "").body();

		await().until(() -> AccessLines.in(output).size() == 2);
		JsonNode cold = AccessLines.in(output).get(0);
		JsonNode warm = AccessLines.in(output).get(1);
		assertThat(warm.get("cachedInputTokens").asLong()).as("the shared prefix came from the pod's cache")
			.isPositive()
			.isEqualTo(JsonMapper.shared().readTree(second).at("/usage/prompt_tokens_details/cached_tokens").asLong());
		assertThat(cold.get("inputTokens").asLong())
			.isEqualTo(JsonMapper.shared().readTree(first).at("/usage/prompt_tokens").asLong());
		for (JsonNode line : List.of(cold, warm)) {
			assertThat(line.get("cost").asDouble()).isPositive().isCloseTo(expectedCost(line), within(1e-12));
		}
		assertThat(counter("priced").count()).isCloseTo(cold.get("cost").asDouble() + warm.get("cost").asDouble(),
				within(1e-12));
	}

	@Test
	void aStreamIsCostedFromTheUsageChunkTheGatewayAskedForAndTheClientNeverSees(CapturedOutput output) {
		double before = counterOrZero("priced");

		String stream = chat("priced", PROMPT + " Streamed.", true, "").body();

		assertThat(stream).contains("data: [DONE]").doesNotContain("\"usage\"");
		await().until(() -> AccessLines.in(output).size() == 1);
		JsonNode line = AccessLines.in(output).get(0);
		assertThat(line.get("outputTokens").asLong()).isEqualTo(6);
		assertThat(line.get("cost").asDouble()).isPositive().isCloseTo(expectedCost(line), within(1e-12));
		assertThat(counter("priced").count() - before).isCloseTo(line.get("cost").asDouble(), within(1e-12));
	}

	@Test
	void aStreamWhoseClientAskedForUsageKeepsItsUsageChunkAndIsCostedTheSame(CapturedOutput output) {
		String stream = chat("priced", PROMPT + " Asked.", true, "\"stream_options\":{\"include_usage\":true},")
			.body();

		assertThat(stream).contains("\"usage\"").contains("\"cached_tokens\"");
		await().until(() -> AccessLines.in(output).size() == 1);
		JsonNode line = AccessLines.in(output).get(0);
		assertThat(line.get("cost").asDouble()).isPositive().isCloseTo(expectedCost(line), within(1e-12));
	}

	@Test
	void aModelWithoutAPriceCountsItsTokensAndCostsNothing(CapturedOutput output) {
		chat("free", PROMPT + " Free.", false, "");

		await().until(() -> AccessLines.in(output).size() == 1);
		JsonNode line = AccessLines.in(output).get(0);
		assertThat(line.get("inputTokens").asLong()).isPositive();
		assertThat(line.get("cost").asDouble()).isZero();
		assertThat(registry.find(SpendMeters.COST).tag("model", "free").counter()).isNull();
	}

	/** 2.0 per million uncached prompt tokens, 0.5 per million cached, 8.0 per million completion tokens. */
	private static double expectedCost(JsonNode line) {
		long input = line.get("inputTokens").asLong();
		long cached = line.get("cachedInputTokens").asLong();
		long output = line.get("outputTokens").asLong();
		return ((input - cached) * 2.0 + cached * 0.5 + output * 8.0) / 1e6;
	}

	private Counter counter(String model) {
		return registry.get(SpendMeters.COST)
			.tags("model", model, "tenant", "a", "key", "team-a", "currency", "EUR")
			.counter();
	}

	private double counterOrZero(String model) {
		Counter counter = registry.find(SpendMeters.COST).tags("model", model, "tenant", "a").counter();
		return (counter != null) ? counter.count() : 0;
	}

	private HttpResponse<String> chat(String model, String content, boolean stream, String extra) {
		String body = "{\"model\":\"" + model + "\",\"stream\":" + stream + "," + extra
				+ "\"max_tokens\":6,\"messages\":[{\"role\":\"user\",\"content\":\"" + content + "\"}]}";
		HttpResponse<String> response = Http.send(HttpRequest.newBuilder(URI.create(url("/v1/chat/completions")))
			.timeout(Duration.ofSeconds(60))
			.header("Content-Type", "application/json")
			.header("Authorization", "Bearer " + SECRET)
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return response;
	}
}
