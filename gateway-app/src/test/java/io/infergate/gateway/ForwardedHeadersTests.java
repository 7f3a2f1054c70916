package io.infergate.gateway;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.RecordingRelay;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A model server receives the headers it needs and no others; a request with more header fields than the gateway
 * takes is 431, however small they are, and writes no log line.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				// large enough that only the count of header fields limits the requests below
				"server.max-http-request-header-size=64KB" })
class ForwardedHeadersTests extends SimulatedPods {

	static SimulatedModelServer pod;

	static RecordingRelay relay;

	@DynamicPropertySource
	static void pool(DynamicPropertyRegistry registry) {
		pod = sims.start("llama");
		relay = new RecordingRelay(pod.baseUrl());
		registry.add("infergate.pools.p.endpoints", relay::baseUrl);
	}

	@AfterAll
	static void stopRelay() {
		relay.close();
	}

	@BeforeEach
	void podReady() {
		awaitReady("p");
	}

	private static HttpRequest.Builder chat() {
		return HttpRequest.newBuilder(URI.create("http://unused"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(Http.chat("llama", "which headers", false, 2)));
	}

	private HttpRequest.Builder chatWithHeaders(int count) {
		HttpRequest.Builder request = chat().uri(URI.create(url("/v1/chat/completions")));
		for (int i = 0; i < count; i++) {
			request.header("x-h" + i, "v");
		}
		return request;
	}

	@Test
	void aModelServerReceivesOnlyTheHeadersItNeeds() {
		HttpRequest request = chat().uri(URI.create(url("/v1/chat/completions")))
			.header("Authorization", "Bearer sk-client-secret")
			.header("Cookie", "session=abc")
			.header("X-Request-Id", "req-42")
			.header("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
			.header("X-Stainless-Lang", "js")
			.header("Accept-Encoding", "gzip")
			.build();
		int before = relay.generationHeaders().size();

		HttpResponse<String> response = Http.send(request);

		assertThat(response.statusCode()).isEqualTo(200);
		Map<String, List<String>> received = relay.generationHeaders().get(before);
		assertThat(received).containsEntry("x-request-id", List.of("req-42"))
			.containsKeys("content-type", "traceparent")
			.doesNotContainKeys("authorization", "cookie", "x-stainless-lang", "accept-encoding", "forwarded",
					"x-forwarded-for");
	}

	@Test
	void aRequestWithMoreHeaderFieldsThanTheLimitIs431InOpenAiShapeWithoutLogging(CapturedOutput output) {
		int logBefore = output.getAll().length();

		HttpResponse<String> tooMany = Http.send(chatWithHeaders(1_000).build());
		HttpResponse<String> enough = Http.send(chatWithHeaders(90).build());

		assertThat(tooMany.statusCode()).isEqualTo(431);
		assertThat(tooMany.headers().firstValue("content-type")).hasValue("application/json");
		assertThat(tooMany.body()).startsWith("{\"error\":{").contains("\"code\":\"request_headers_too_large\"");
		assertThat(enough.statusCode()).isEqualTo(200);
		String logged = output.getAll().substring(logBefore);
		assertThat(logged.lines().filter((line) -> !line.isBlank()).count()).as(logged).isLessThanOrEqualTo(3);
	}
}
