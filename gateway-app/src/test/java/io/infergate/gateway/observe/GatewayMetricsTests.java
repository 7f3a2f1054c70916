package io.infergate.gateway.observe;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.PrometheusText;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.gateway.support.Sims;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The gateway-side GenAI histograms on {@code /actuator/prometheus}, after requests through the gateway to simulated
 * pods: one pool per pod, so each request's pod is known, and the slow pod holds every generation for
 * {@value #INJECTED_DELAY_MILLIS} ms before its engine sees it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"infergate.models.fast-model.pool=fast", "infergate.models.fast-model.target-model=llama",
				"infergate.models.slow-model.pool=slow", "infergate.models.slow-model.target-model=llama" })
class GatewayMetricsTests extends SimulatedPods {

	static final long INJECTED_DELAY_MILLIS = 300;

	static SimulatedModelServer fast;

	static SimulatedModelServer slow;

	@DynamicPropertySource
	static void pools(DynamicPropertyRegistry registry) {
		fast = sims.start("llama");
		slow = sims.start("llama");
		slow.faults().delayGenerations(Duration.ofMillis(INJECTED_DELAY_MILLIS));
		registry.add("infergate.pools.fast.endpoints", fast::baseUrl);
		registry.add("infergate.pools.slow.endpoints", slow::baseUrl);
	}

	@BeforeEach
	void everyPoolIsReady() {
		awaitEveryPoolReady();
	}

	private static String streamWithUsage(String model, int maxTokens) {
		return "{\"model\":\"" + model + "\",\"stream\":true,\"stream_options\":{\"include_usage\":true},"
				+ "\"max_tokens\":" + maxTokens + ",\"messages\":[{\"role\":\"user\",\"content\":\"Count to ten\"}]}";
	}

	private PrometheusText scrape() {
		return PrometheusText.parse(Http.getAsAdmin(managementUrl("/actuator/prometheus")).body());
	}

	private static Map<String, String> tags(String pool, String model, SimulatedModelServer pod) {
		return Map.of("pool", pool, "model", model, "endpoint", Sims.id(pod));
	}

	@Test
	void requestsLeaveTtftTimePerTokenDurationAndTokenHistogramsTaggedByPoolModelAndEndpoint() {
		PrometheusText before = scrape();
		Map<String, String> tags = tags("fast", "fast-model", fast);
		double ttftBefore = countOrZero(before, "gen_ai_server_time_to_first_token_seconds_count", tags);

		assertThat(Http.postJson(url("/v1/chat/completions"), streamWithUsage("fast-model", 12)).statusCode()).isEqualTo(200);
		assertThat(Http.postJson(url("/v1/chat/completions"), Http.chat("fast-model", "hi", false, 5)).statusCode()).isEqualTo(200);
		PrometheusText after = scrape();

		assertThat(after.value("gen_ai_server_time_to_first_token_seconds_count", tags) - ttftBefore).isEqualTo(2);
		assertThat(after.value("gen_ai_server_request_duration_seconds_count", tags)).isGreaterThanOrEqualTo(2);
		assertThat(after.value("gen_ai_server_time_per_output_token_seconds_count", tags)).isGreaterThanOrEqualTo(1);
		assertThat(after.samples("gen_ai_server_time_to_first_token_seconds_bucket", tags))
			.extracting((sample) -> sample.labels().get("le"))
			.contains("0.001", "0.1", "1.0", "60.0", "+Inf");
		Map<String, String> output = Map.of("pool", "fast", "model", "fast-model", "endpoint", Sims.id(fast),
				"gen_ai_token_type", "output");
		Map<String, String> input = Map.of("pool", "fast", "model", "fast-model", "endpoint", Sims.id(fast),
				"gen_ai_token_type", "input");
		assertThat(after.value("gen_ai_client_token_usage_sum", output)
				- countOrZero(before, "gen_ai_client_token_usage_sum", output)).isEqualTo(12 + 5);
		assertThat(after.value("gen_ai_client_token_usage_sum", input)
				- countOrZero(before, "gen_ai_client_token_usage_sum", input)).isGreaterThan(0);
	}

	@Test
	void ttftOfAPodSlowedByFaultInjectionIsLargerByTheInjectedDelay() {
		PrometheusText before = scrape();
		for (int i = 0; i < 8; i++) {
			assertThat(Http.postJson(url("/v1/chat/completions"), streamWithUsage("fast-model", 4)).statusCode()).isEqualTo(200);
			assertThat(Http.postJson(url("/v1/chat/completions"), streamWithUsage("slow-model", 4)).statusCode()).isEqualTo(200);
		}
		PrometheusText after = scrape();

		double fastTtft = meanTtftSeconds(before, after, tags("fast", "fast-model", fast));
		double slowTtft = meanTtftSeconds(before, after, tags("slow", "slow-model", slow));

		double injected = INJECTED_DELAY_MILLIS / 1000.0;
		assertThat(slowTtft - fastTtft).isCloseTo(injected, within(injected * 0.2));
	}

	private static double meanTtftSeconds(PrometheusText before, PrometheusText after, Map<String, String> tags) {
		String sum = "gen_ai_server_time_to_first_token_seconds_sum";
		String count = "gen_ai_server_time_to_first_token_seconds_count";
		return (after.value(sum, tags) - countOrZero(before, sum, tags))
				/ (after.value(count, tags) - countOrZero(before, count, tags));
	}

	private static double countOrZero(PrometheusText scrape, String name, Map<String, String> tags) {
		double value = scrape.value(name, tags);
		return Double.isNaN(value) ? 0 : value;
	}
}
