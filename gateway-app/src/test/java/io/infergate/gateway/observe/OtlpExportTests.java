package io.infergate.gateway.observe;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * OTLP export is turned on by one property, {@code management.opentelemetry.tracing.export.otlp.endpoint}: a
 * stand-in collector on loopback then receives the request's span over OTLP/HTTP, with Infergate's attributes.
 * (Without the property no exporter exists: see {@link TracingTests}.)
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"management.tracing.sampling.probability=1.0",
				"management.opentelemetry.tracing.export.schedule-delay=50ms",
				"infergate.models.llama.pool=llama", "infergate.models.llama.target-model=llama" })
class OtlpExportTests extends SimulatedPods {

	static SimulatedModelServer pod;

	static HttpServer collector;

	/** Each export the collector received: its method, content type and body. */
	static final List<Export> exports = new CopyOnWriteArrayList<>();

	record Export(String method, String contentType, byte[] body) {

		boolean mentions(String text) {
			return new String(body, StandardCharsets.ISO_8859_1).contains(text);
		}
	}

	@DynamicPropertySource
	static void poolAndCollector(DynamicPropertyRegistry registry) {
		pod = sims.start("llama");
		registry.add("infergate.pools.llama.endpoints", pod::baseUrl);
		try {
			collector = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		collector.createContext("/v1/traces", (exchange) -> {
			exports.add(new Export(exchange.getRequestMethod(), exchange.getRequestHeaders().getFirst("Content-Type"),
					exchange.getRequestBody().readAllBytes()));
			exchange.sendResponseHeaders(200, -1);
			exchange.close();
		});
		collector.start();
		registry.add("management.opentelemetry.tracing.export.otlp.endpoint",
				() -> "http://127.0.0.1:" + collector.getAddress().getPort() + "/v1/traces");
	}

	@AfterAll
	static void stopCollector() {
		collector.stop(0);
	}

	@Test
	void theRequestsSpanReachesTheCollectorWithInfergatesAttributes() {
		awaitReady("llama");

		assertThat(Http.postJson(url("/v1/chat/completions"), Http.chat("llama", "export me", false, 2)).statusCode())
			.isEqualTo(200);

		await().atMost(Duration.ofSeconds(10))
			.until(() -> exports.stream().anyMatch((export) -> export.mentions("infergate.pool")));
		assertThat(exports).filteredOn((export) -> export.mentions("infergate.pool")).first().satisfies((export) -> {
			assertThat(export.method()).isEqualTo("POST");
			assertThat(export.contentType()).isEqualTo("application/x-protobuf");
			assertThat(export.mentions("gen_ai.request.model")).isTrue();
			assertThat(export.mentions("/v1/chat/completions")).isTrue();
		});
	}
}
