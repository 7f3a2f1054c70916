package io.infergate.gateway.observe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.PrometheusText;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.gateway.support.Sims;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every query of the Grafana dashboard ({@code deploy/grafana/infergate.json}) names only metrics that a running
 * gateway's {@code /actuator/prometheus} or its simulated vLLM pods' {@code /metrics} export, after some traffic
 * (one request refused by a model's rate limit among it); and every panel uses the datasource the compose
 * provisioning defines.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"infergate.models.llama.pool=llama", "infergate.models.llama.target-model=llama",
				"infergate.models.llama.price.input=0.15", "infergate.models.llama.price.output=0.6",
				"infergate.models.limited.pool=llama", "infergate.models.limited.target-model=llama",
				"infergate.models.limited.limits.rpm=1" })
class GrafanaDashboardTests extends SimulatedPods {

	static final Path DASHBOARD = Path.of("..", "deploy", "grafana", "infergate.json");

	static final Path DATASOURCE = Path.of("..", "deploy", "compose", "grafana", "provisioning", "datasources",
			"prometheus.yml");

	static final Set<String> PROMQL_WORDS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right",
			"bool", "and", "or", "unless", "offset");

	static SimulatedModelServer podA;

	static SimulatedModelServer podB;

	@DynamicPropertySource
	static void pool(DynamicPropertyRegistry registry) {
		podA = sims.start("llama");
		podB = sims.start("llama");
		registry.add("infergate.pools.llama.endpoints", () -> Sims.urls(podA, podB));
	}

	@Test
	void everyQueryNamesAMetricThatIsExported() throws IOException {
		awaitReady("llama");
		for (int i = 0; i < 4; i++) {
			Http.postJson(url("/v1/chat/completions"), Http.chat("llama", "the same prefix, request " + (i % 2), false, 4));
			Http.postJson(url("/v1/chat/completions"), streamWithUsage("request " + i));
		}
		assertThat(Http.postJson(url("/v1/chat/completions"), Http.chat("limited", "first", false, 4)).statusCode())
			.isEqualTo(200);
		assertThat(Http.postJson(url("/v1/chat/completions"), Http.chat("limited", "second", false, 4)).statusCode())
			.as("over the model's limit of 1 request a minute")
			.isEqualTo(429);
		Set<String> exported = new LinkedHashSet<>(PrometheusText.parse(Http.getAsAdmin(managementUrl("/actuator/prometheus")).body()).names());
		exported.addAll(PrometheusText.parse(Http.get(podA.baseUrl() + "/metrics").body()).names());

		List<String> queries = queries(JsonMapper.shared().readTree(Files.readString(DASHBOARD)));

		assertThat(queries).hasSizeGreaterThan(10);
		for (String query : queries) {
			assertThat(metricNames(query)).as(query).isNotEmpty().isSubsetOf(exported);
		}
	}

	@Test
	void everyPanelUsesTheProvisionedDatasource() throws IOException {
		JsonNode dashboard = JsonMapper.shared().readTree(Files.readString(DASHBOARD));
		String provisioned = Files.readString(DATASOURCE);

		assertThat(provisioned).contains("uid: prometheus");
		for (JsonNode panel : dashboard.get("panels")) {
			if (panel.has("targets")) {
				assertThat(panel.get("datasource").get("uid").asString()).as(panel.get("title").asString())
					.isEqualTo("prometheus");
			}
		}
	}

	@Test
	void metricNamesOfAQueryLeaveOutFunctionsLabelsAndRanges() {
		assertThat(metricNames("histogram_quantile(0.9, sum by (le, endpoint) "
				+ "(rate(gen_ai_server_time_to_first_token_seconds_bucket{pool=~\"$pool\", x=\"a b\"}[$__rate_interval])))"))
			.containsExactly("gen_ai_server_time_to_first_token_seconds_bucket");
		assertThat(metricNames("sum(rate(vllm:prefix_cache_hits_total[5m])) / sum(rate(vllm:prefix_cache_queries_total[5m]))"))
			.containsExactly("vllm:prefix_cache_hits_total", "vllm:prefix_cache_queries_total");
		assertThat(metricNames("label_values(infergate_endpoint_waiting_requests, pool)"))
			.containsExactly("infergate_endpoint_waiting_requests");
	}

	private static String streamWithUsage(String content) {
		return "{\"model\":\"llama\",\"stream\":true,\"stream_options\":{\"include_usage\":true},\"max_tokens\":4,"
				+ "\"messages\":[{\"role\":\"user\",\"content\":\"" + content + "\"}]}";
	}

	/** Every panel target's expression (rows included) and every templating query. */
	private static List<String> queries(JsonNode dashboard) {
		List<String> queries = new ArrayList<>();
		collectTargets(dashboard.get("panels"), queries);
		for (JsonNode variable : dashboard.path("templating").path("list")) {
			JsonNode query = variable.get("query");
			queries.add(query.isObject() ? query.get("query").asString() : query.asString());
		}
		return queries;
	}

	private static void collectTargets(JsonNode panels, List<String> queries) {
		for (JsonNode panel : panels) {
			for (JsonNode target : panel.path("targets")) {
				queries.add(target.get("expr").asString());
			}
			collectTargets(panel.path("panels"), queries);
		}
	}

	/** The metric names a PromQL expression (or a Grafana {@code label_values(metric, label)}) selects. */
	static Set<String> metricNames(String query) {
		String expr = query.trim();
		if (expr.startsWith("label_values(")) {
			expr = expr.substring("label_values(".length(), expr.lastIndexOf(')')).split(",")[0];
		}
		expr = expr.replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"")
			.replaceAll("\\{[^}]*}", " ")
			.replaceAll("\\[[^]]*]", " ")
			.replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
		Set<String> names = new LinkedHashSet<>();
		Matcher identifier = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*").matcher(expr);
		while (identifier.find()) {
			String name = identifier.group();
			String rest = expr.substring(identifier.end()).stripLeading();
			if (!rest.startsWith("(") && !PROMQL_WORDS.contains(name)) {
				names.add(name);
			}
		}
		return names;
	}
}
