package io.infergate.gateway.observe;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.gateway.support.Sims;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tracing: every inference request makes one server span carrying Infergate's attributes, and the request reaches
 * the model server with a W3C {@code traceparent} of the same trace. Spans go to an in-memory exporter.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"management.tracing.sampling.probability=1.0",
				"management.opentelemetry.tracing.export.schedule-delay=50ms",
				"infergate.models.llama.pool=llama", "infergate.models.llama.target-model=llama",
				"infergate.models.primary.pool=primary", "infergate.models.primary.target-model=small",
				"infergate.models.primary.fallbacks=secondary", "infergate.models.secondary.pool=secondary",
				"infergate.models.secondary.target-model=large" })
class TracingTests extends SimulatedPods {

	static SimulatedModelServer pod;

	static SimulatedModelServer primary;

	static SimulatedModelServer secondary;

	@Autowired
	InMemorySpanExporter spans;

	@Autowired
	ApplicationContext context;

	@DynamicPropertySource
	static void pool(DynamicPropertyRegistry registry) {
		pod = sims.start("llama");
		primary = sims.start("small");
		secondary = sims.start("large");
		registry.add("infergate.pools.llama.endpoints", pod::baseUrl);
		registry.add("infergate.pools.primary.endpoints", primary::baseUrl);
		registry.add("infergate.pools.secondary.endpoints", secondary::baseUrl);
	}

	@TestConfiguration
	static class InMemoryExport {

		@Bean
		InMemorySpanExporter inMemorySpanExporter() {
			return InMemorySpanExporter.create();
		}
	}

	@BeforeEach
	void readyAndNoSpansYet() {
		awaitEveryPoolReady();
		spans.reset();
	}

	private List<SpanData> inferenceServerSpans() {
		return spans.getFinishedSpanItems()
			.stream()
			.filter((span) -> span.getKind() == SpanKind.SERVER)
			.filter((span) -> "/v1/chat/completions".equals(span.getAttributes().get(AttributeKey.stringKey("http.url"))))
			.toList();
	}

	@Test
	void eachRequestMakesOneServerSpanWithInfergatesAttributes() {
		for (int i = 0; i < 3; i++) {
			assertThat(Http.postJson(url("/v1/chat/completions"), Http.chat("llama", "hi " + i, false, 3)).statusCode())
				.isEqualTo(200);
		}

		await().atMost(Duration.ofSeconds(10)).until(() -> inferenceServerSpans().size() >= 3);
		List<SpanData> server = inferenceServerSpans();

		assertThat(server).hasSize(3).allSatisfy((span) -> {
			assertThat(span.getAttributes().get(AttributeKey.stringKey("infergate.pool"))).isEqualTo("llama");
			assertThat(span.getAttributes().get(AttributeKey.stringKey("gen_ai.request.model"))).isEqualTo("llama");
			assertThat(span.getAttributes().get(AttributeKey.stringKey("infergate.endpoint"))).isEqualTo(Sims.id(pod));
			assertThat(span.getAttributes().get(AttributeKey.stringKey("infergate.profile"))).isEqualTo("default");
			assertThat(span.getAttributes().get(AttributeKey.stringKey("gen_ai.usage.output_tokens"))).isEqualTo("3");
			assertThat(span.getAttributes().get(AttributeKey.stringKey("infergate.fallbacks"))).isEqualTo("0");
			assertThat(span.getAttributes().get(AttributeKey.stringKey("infergate.ttft_ms"))).isNotNull();
		});
	}

	@Test
	void aRequestServedByAFallbackIsOneSpanNamingTheFallbacksPoolAndBothModelServersSeeItsTrace() {
		primary.faults().failNextGenerations(1, 503);

		assertThat(Http.postJson(url("/v1/chat/completions"), Http.chat("primary", "hi", false, 2)).statusCode())
			.isEqualTo(200);

		await().atMost(Duration.ofSeconds(10)).until(() -> inferenceServerSpans().size() == 1);
		assertThat(inferenceServerSpans()).singleElement().satisfies((span) -> {
			assertThat(span.getAttributes().get(AttributeKey.stringKey("gen_ai.request.model"))).isEqualTo("primary");
			assertThat(span.getAttributes().get(AttributeKey.stringKey("infergate.fallbacks"))).isEqualTo("1");
			assertThat(span.getAttributes().get(AttributeKey.stringKey("infergate.pool"))).isEqualTo("secondary");
			assertThat(span.getAttributes().get(AttributeKey.stringKey("infergate.endpoint")))
				.isEqualTo(Sims.id(secondary));
		});
		String traceId = inferenceServerSpans().get(0).getTraceId();
		assertThat(primary.receivedTraceparents()).last().asString().startsWith("00-" + traceId + "-");
		assertThat(secondary.receivedTraceparents()).last().asString().startsWith("00-" + traceId + "-");
	}

	@Test
	void noSpanLeavesTheProcessWithoutAnExporterConfigured() {
		assertThat(context.getBeansOfType(SpanExporter.class).values()).as("only this test's in-memory exporter")
			.containsExactly(spans);
	}

	@Test
	void theProxiedCallIsAClientSpanInsideTheRequestsSpan() {
		assertThat(Http.postJson(url("/v1/chat/completions"), Http.chat("llama", "hi", false, 2)).statusCode())
			.isEqualTo(200);

		await().atMost(Duration.ofSeconds(10)).until(() -> inferenceServerSpans().size() == 1
				&& spans.getFinishedSpanItems().stream().anyMatch((span) -> span.getKind() == SpanKind.CLIENT));
		SpanData server = inferenceServerSpans().get(0);

		assertThat(spans.getFinishedSpanItems()).filteredOn((span) -> span.getKind() == SpanKind.CLIENT)
			.singleElement()
			.satisfies((client) -> {
				assertThat(client.getTraceId()).isEqualTo(server.getTraceId());
				assertThat(client.getParentSpanId()).isEqualTo(server.getSpanId());
			});
	}

	@Test
	void theModelServerReceivesATraceparentOfTheRequestsTrace() {
		assertThat(Http.postJson(url("/v1/chat/completions"), Http.chat("llama", "trace me", false, 2)).statusCode())
			.isEqualTo(200);

		await().atMost(Duration.ofSeconds(10)).until(() -> inferenceServerSpans().size() == 1);
		String traceId = inferenceServerSpans().get(0).getTraceId();

		assertThat(pod.receivedTraceparents()).last()
			.satisfies((traceparent) -> assertThat(traceparent).matches("00-" + traceId + "-[0-9a-f]{16}-01"));
	}
	@Test
	void openMetricsCarriesExemplarsOnlyWhereOpenMetricsAllowsThemSoOlderPrometheusServersCanScrape() {
		for (int i = 0; i < 3; i++) {
			assertThat(Http.postJson(url("/v1/chat/completions"), Http.chat("llama", "hi " + i, false, 2)).statusCode())
				.isEqualTo(200);
		}
		String url = managementUrl("/actuator/prometheus");
		Http.getAsAdmin(url);

		HttpResponse<String> scrape = Http.send(HttpRequest.newBuilder(URI.create(url))
			.header("Authorization", Http.basic(Http.ADMIN, Http.ADMIN_PASSWORD))
			.header("Accept", "application/openmetrics-text; version=1.0.0; charset=utf-8")
			.GET()
			.build());

		assertThat(scrape.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("application/openmetrics-text"));
		List<String> lines = scrape.body().lines().toList();
		assertThat(lines).as("sampled requests were timed").anyMatch((line) -> line.startsWith(
				"http_server_requests_seconds_count{") && line.contains("uri=\"/actuator/prometheus\""));
		// Prometheus before 2.43 drops the whole scrape on an exemplar after a summary's _count or _sum
		assertThat(lines).filteredOn((line) -> line.contains(" # {"))
			.noneMatch((line) -> line.matches("^[a-zA-Z_:][a-zA-Z0-9_:]*_(count|sum|created)[{ ].*"));
	}
}
