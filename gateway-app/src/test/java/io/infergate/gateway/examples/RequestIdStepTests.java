package io.infergate.gateway.examples;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.route.InferenceRoute;
import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPods;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A new request-path step is its class, this test and one line of configuration: the line that names it in
 * {@code infergate.gateway.steps}. The step is a {@code @Component}, found by the application's component scan.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				// the one line
				"infergate.gateway.steps=request-id" })
class RequestIdStepTests extends SimulatedPods {

	@DynamicPropertySource
	static void pools(DynamicPropertyRegistry registry) {
		registry.add("infergate.pools.p.endpoints", () -> sims.start("llama").baseUrl());
	}

	@BeforeEach
	void ready() {
		awaitReady("p");
	}

	@Test
	void aRequestWithoutAnIdGetsOneOnItsResponse() {
		HttpResponse<String> response = chat(null);

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue(RequestIdStep.HEADER)).hasValueSatisfying(
				(id) -> assertThat(id).matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"));
	}

	@Test
	void aRequestKeepsItsOwnId() {
		HttpResponse<String> response = chat("client-7");

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue(RequestIdStep.HEADER)).hasValue("client-7");
	}

	@Test
	void aNameThatNoStepHasIsAStartupProblemNamingTheStepsThatExist() {
		assertThat(InferenceRoute.stepProblems(List.of("request-id", "audit"), Set.of("request-id")))
			.containsExactly("infergate.gateway.steps: no step named audit; steps: request-id");
		assertThat(InferenceRoute.stepProblems(List.of("request-id"), Set.of("request-id"))).isEmpty();
	}

	private HttpResponse<String> chat(String requestId) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url("/v1/chat/completions")))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(Http.chat("llama", "hello", false, 4)));
		if (requestId != null) {
			request.header(RequestIdStep.HEADER, requestId);
		}
		return Http.send(request.build());
	}
}
