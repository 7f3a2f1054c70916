package io.infergate.gateway.picker;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.ManagedChannel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.picker.EnvoyDataPlane.Relayed;
import io.infergate.gateway.picker.EnvoyDataPlane.RequestAnswer;
import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.gateway.support.Sims;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.flowcontrol.FlowController;
import io.infergate.routing.flowcontrol.PoolFlowReport;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Endpoint Picker end to end: a stand-in for Envoy's ext_proc filter talks to the picker over a real gRPC
 * connection, exactly as Envoy would in {@code FULL_DUPLEX_STREAMED} mode, then sends each request it routed to
 * the simulated vLLM pod the picker chose, over HTTP, and passes the response back through the picker.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"infergate.endpoint-picker.enabled=true", "infergate.endpoint-picker.port=0",
				"infergate.endpoint-picker.health-port=0", "infergate.gateway.max-body-size=1MB",
				"infergate.models.llama.pool=p", "infergate.models.llama.target-model=llama" })
class EndpointPickerTests extends SimulatedPods {

	static final String CHAT = "/v1/chat/completions";

	static SimulatedModelServer podA;

	static SimulatedModelServer podB;

	@Autowired
	PickerServer server;

	@Autowired
	FlowController flowController;

	@Autowired
	MeterRegistry meters;

	EnvoyDataPlane envoy;

	@DynamicPropertySource
	static void pool(DynamicPropertyRegistry registry) {
		podA = sims.start("llama");
		podB = sims.start("llama");
		registry.add("infergate.pools.p.endpoints", () -> Sims.urls(podA, podB));
	}

	@BeforeEach
	void connect() {
		awaitReady("p");
		envoy = new EnvoyDataPlane(server.port());
	}

	@AfterEach
	void nothingIsLeftInFlight() {
		envoy.close();
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			PoolFlowReport report = flowController.report("p");
			assertThat(report.queuedRequests()).isZero();
			assertThat(report.inFlightRequests()).isZero();
			assertThat(endpoints.pool("p").endpoints()).allMatch((endpoint) -> endpoint.inFlightRequests() == 0);
		});
	}

	@Test
	void aChatInOneChunkIsRoutedRelayedAndItsUsageCounted() throws Exception {
		double promptTokensBefore = tokenUsageSum("input");
		byte[] body = Http.chat("llama", "Say hello to the picker.", false, 12).getBytes(StandardCharsets.UTF_8);
		EnvoyDataPlane.Stream stream = envoy.open().requestHeaders(CHAT, Map.of(), null, false).requestBody(body, true);
		RequestAnswer answer = stream.awaitRequestAnswer(false);
		assertThat(answer.isImmediate()).as("immediate %s", answer.immediate()).isFalse();
		assertThat(answer.headers().getRequestHeaders().getResponse().getClearRouteCache()).isTrue();
		assertThat(answer.destination()).isIn(Sims.id(podA), Sims.id(podB));
		assertThat(answer.metadataDestination()).isEqualTo(answer.destination());
		assertThat(answer.body()).isEqualTo(body);
		assertThat(answer.setHeader("content-length")).isEqualTo(Integer.toString(body.length));
		assertThat(answer.bodyChunks()).hasSize(1);

		Relayed relayed = stream.forward(CHAT, answer);
		assertThat(relayed.status()).isEqualTo(200);
		assertThat(relayed.endOfStream()).isTrue();
		assertThat(relayed.body()).contains("\"usage\"").contains("chat.completion");
		assertThat(stream.closedByPicker()).isTrue();
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(tokenUsageSum("input") - promptTokensBefore).isGreaterThan(0));
	}

	@Test
	void aLargeBodyInManyOddChunksIsSentBackByteForByteInChunksOfAtMost64KB() throws Exception {
		String words = "the quick brown fox jumps over the lazy dog ".repeat(4_000);
		byte[] body = Http.chat("llama", words, false, 4).getBytes(StandardCharsets.UTF_8);
		assertThat(body.length).isGreaterThan(150_000);
		EnvoyDataPlane.Stream stream = envoy.open().requestHeaders(CHAT, Map.of(), null, false);
		int[] sizes = { 1, 7, 4_099, 65_537, 13, 70_001 };
		int offset = 0;
		for (int i = 0; offset < body.length; i++) {
			int size = Math.min(sizes[i % sizes.length], body.length - offset);
			byte[] chunk = java.util.Arrays.copyOfRange(body, offset, offset + size);
			offset += size;
			stream.requestBody(chunk, offset == body.length);
		}
		RequestAnswer answer = stream.awaitRequestAnswer(false);
		assertThat(answer.isImmediate()).as("immediate %s", answer.immediate()).isFalse();
		assertThat(answer.body()).isEqualTo(body);
		assertThat(answer.bodyChunks()).hasSize((body.length + 65_535) / 65_536);
		for (int i = 0; i < answer.bodyChunks().size(); i++) {
			var streamed = answer.bodyChunks().get(i).getRequestBody().getResponse().getBodyMutation().getStreamedResponse();
			assertThat(streamed.getBody().size()).isLessThanOrEqualTo(65_536);
			assertThat(streamed.getEndOfStream()).isEqualTo(i == answer.bodyChunks().size() - 1);
		}
		// about 40k tokens, more than the simulated model's context: the proxy answers from the model server
		stream.responseHeaders(400, Map.of("content-type", "application/json"), answer.destination(), false);
		assertThat(stream.next().hasResponseHeaders()).isTrue();
		stream.responseBody(bytes("{\"error\":{\"message\":\"too long\"}}"), true);
		assertThat(stream.next().getResponseBody().getResponse().getBodyMutation().getStreamedResponse()
			.getEndOfStream()).isTrue();
		stream.finish();
		assertThat(stream.closedByPicker()).isTrue();
	}

	@Test
	void requestTrailersAreAnsweredAfterTheBody() throws Exception {
		byte[] body = Http.chat("llama", "With trailers.", false, 4).getBytes(StandardCharsets.UTF_8);
		EnvoyDataPlane.Stream stream = envoy.open()
			.requestHeaders(CHAT, Map.of(), null, false)
			.requestBody(body, false)
			.requestTrailers();
		RequestAnswer answer = stream.awaitRequestAnswer(true);
		assertThat(answer.trailersAnswered()).isTrue();
		assertThat(answer.body()).isEqualTo(body);
		assertThat(answer.bodyChunks().get(answer.bodyChunks().size() - 1).getRequestBody().getResponse()
			.getBodyMutation().getStreamedResponse().getEndOfStream()).isFalse();
		assertThat(stream.forward(CHAT, answer).status()).isEqualTo(200);
	}

	@Test
	void aStreamWithoutIncludeUsageHasItsUsageCountedAndItsUsageChunkTakenOut() throws Exception {
		double outputBefore = tokenUsageSum("output");
		byte[] body = Http.chat("llama", "Stream to me.", true, 9).getBytes(StandardCharsets.UTF_8);
		EnvoyDataPlane.Stream stream = envoy.open().requestHeaders(CHAT, Map.of(), null, false).requestBody(body, true);
		RequestAnswer answer = stream.awaitRequestAnswer(false);
		assertThat(new String(answer.body(), StandardCharsets.UTF_8)).contains("\"include_usage\":true");
		Relayed relayed = stream.forward(CHAT, answer);
		assertThat(relayed.body()).contains("data: [DONE]").doesNotContain("\"usage\"");
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(tokenUsageSum("output") - outputBefore).isEqualTo(9));
	}

	@Test
	void aRepeatedPrefixGoesToTheSameEndpoint() throws Exception {
		String system = "You are the support assistant of a company that sells garden tools. ".repeat(40);
		Set<String> destinations = new HashSet<>();
		for (int i = 0; i < 6; i++) {
			String chat = "{\"model\":\"llama\",\"max_tokens\":2,\"messages\":[{\"role\":\"system\",\"content\":\""
					+ system + "\"},{\"role\":\"user\",\"content\":\"question " + i + "\"}]}";
			EnvoyDataPlane.Stream stream = envoy.open()
				.requestHeaders(CHAT, Map.of(), null, false)
				.requestBody(chat.getBytes(StandardCharsets.UTF_8), true);
			RequestAnswer answer = stream.awaitRequestAnswer(false);
			destinations.add(answer.destination());
			assertThat(stream.forward(CHAT, answer).status()).isEqualTo(200);
		}
		assertThat(destinations).hasSize(1);
	}

	@Test
	void theSubsetHintIsHonouredAndAnEmptyOneIsAn503() throws Exception {
		byte[] body = Http.chat("llama", "Only B.", false, 2).getBytes(StandardCharsets.UTF_8);
		for (int i = 0; i < 4; i++) {
			EnvoyDataPlane.Stream stream = envoy.open()
				.requestHeaders(CHAT, Map.of(), EnvoyDataPlane.subsetHint(Sims.id(podB)), false)
				.requestBody(body, true);
			RequestAnswer answer = stream.awaitRequestAnswer(false);
			assertThat(answer.destination()).isEqualTo(Sims.id(podB));
			assertThat(stream.forward(CHAT, answer).status()).isEqualTo(200);
		}
		EnvoyDataPlane.Stream stream = envoy.open()
			.requestHeaders(CHAT, Map.of(), EnvoyDataPlane.subsetHint("10.255.0.1:8000"), false)
			.requestBody(body, true);
		RequestAnswer answer = stream.awaitRequestAnswer(false);
		assertThat(answer.isImmediate()).isTrue();
		assertThat(answer.immediateStatus()).isEqualTo(503);
		assertThat(answer.immediateHeader("content-type")).isEqualTo("application/json");
		assertThat(answer.immediateBody()).contains("\"code\":\"no_endpoint_available\"").startsWith("{\"error\":");
		assertThat(stream.closedByPicker()).isTrue();
	}

	@Test
	void badInputGetsAnImmediateOpenAiErrorAndNeverA5xx() throws Exception {
		assertImmediate(envoy.open().requestHeaders(CHAT, Map.of(), null, false).requestBody(bytes("{not json"), true),
				400, "invalid_json");
		assertImmediate(envoy.open()
			.requestHeaders(CHAT, Map.of(), null, false)
			.requestBody(bytes(Http.chat("no-such-model", "hi", false, 2)), true), 404, "model_not_found");
		// a body before any headers
		assertImmediate(envoy.open().requestBody(bytes(Http.chat("llama", "hi", false, 2)), true), 400,
				"ext_proc_protocol_error");
		// response headers before the request ended
		assertImmediate(envoy.open().requestHeaders(CHAT, Map.of(), null, false).responseHeaders(200, Map.of(), null,
				false), 400, "ext_proc_protocol_error");
		assertImmediate(envoy.open().requestHeaders(CHAT, Map.of(), null, true), 400, "invalid_request");
		assertImmediate(envoy.open().requestHeaders("/v1/nothing-here", Map.of(), null, false), 404, null);
		// over the 1MB limit, in 256KB chunks: refused as soon as it passes, the rest never read
		EnvoyDataPlane.Stream large = envoy.open().requestHeaders(CHAT, Map.of(), null, false);
		byte[] quarter = new byte[256 * 1024];
		java.util.Arrays.fill(quarter, (byte) 'a');
		for (int i = 0; i < 4; i++) {
			large.requestBody(quarter, false);
		}
		large.requestBody(quarter, true);
		assertImmediate(large, 413, "request_too_large");
	}

	@Test
	void aStreamEndedMidBodyOrMidResponseLeavesNothingInFlight() throws Exception {
		EnvoyDataPlane.Stream midBody = envoy.open().requestHeaders(CHAT, Map.of(), null, false).requestBody(bytes("{\"mo"),
				false);
		midBody.cancel();
		byte[] body = Http.chat("llama", "Stream to me slowly.", true, 50).getBytes(StandardCharsets.UTF_8);
		EnvoyDataPlane.Stream midResponse = envoy.open()
			.requestHeaders(CHAT, Map.of(), null, false)
			.requestBody(body, true);
		RequestAnswer answer = midResponse.awaitRequestAnswer(false);
		assertThat(endpoints.pool("p").endpoints().stream().mapToInt(Endpoint::inFlightRequests).sum()).isEqualTo(1);
		midResponse.responseHeaders(200, Map.of("content-type", "text/event-stream"), answer.destination(), false);
		assertThat(midResponse.next().hasResponseHeaders()).isTrue();
		midResponse.responseBody(bytes("data: {\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\n\n"), false);
		assertThat(midResponse.next().hasResponseBody()).isTrue();
		midResponse.cancel();
		// the @AfterEach checks that nothing is left in flight or queued
	}

	@Test
	void aThousandConcurrentStreamsAreEachRoutedAndSettled() throws Exception {
		int streams = 1_000;
		byte[] body = Http.chat("llama", "One of many.", false, 2).getBytes(StandardCharsets.UTF_8);
		List<EnvoyDataPlane.Stream> open = new ArrayList<>();
		for (int i = 0; i < streams; i++) {
			open.add(envoy.open().requestHeaders(CHAT, Map.of(), null, false).requestBody(body, true));
		}
		ExecutorService answering = Executors.newFixedThreadPool(16);
		try {
			List<Future<String>> destinations = new ArrayList<>();
			for (EnvoyDataPlane.Stream stream : open) {
				destinations.add(answering.submit(() -> {
					RequestAnswer answer = stream.awaitRequestAnswer(false);
					if (answer.isImmediate()) {
						return "immediate " + answer.immediateStatus();
					}
					// the model server's answer, as Envoy would pass it back
					stream.responseHeaders(200, Map.of("content-type", "application/json"), answer.destination(),
							false);
					stream.next();
					stream.responseBody(bytes("{\"choices\":[],\"usage\":{\"prompt_tokens\":12,"
							+ "\"completion_tokens\":2,\"total_tokens\":14}}"), true);
					stream.next();
					stream.finish();
					return answer.destination();
				}));
			}
			int routed = 0;
			for (Future<String> destination : destinations) {
				String value = destination.get();
				assertThat(value).isIn(Sims.id(podA), Sims.id(podB));
				routed++;
			}
			assertThat(routed).isEqualTo(streams);
		}
		finally {
			answering.shutdownNow();
		}
	}

	@Test
	void decisionsSayWhichFrontDoorCarriedTheRequest() throws Exception {
		byte[] body = Http.chat("llama", "Through the picker.", false, 2).getBytes(StandardCharsets.UTF_8);
		EnvoyDataPlane.Stream stream = envoy.open().requestHeaders(CHAT, Map.of(), null, false).requestBody(body, true);
		assertThat(stream.forward(CHAT, stream.awaitRequestAnswer(false)).status()).isEqualTo(200);
		assertThat(Http.postJson(url(CHAT), Http.chat("llama", "Through HTTP.", false, 2)).statusCode()).isEqualTo(200);
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			String report = Http.getAsAdmin(managementUrl("/actuator/inference")).body();
			assertThat(report).contains("\"via\":\"ext-proc\"").contains("\"via\":\"http\"");
		});
	}

	@Test
	void grpcHealthServesLivenessReadinessAndTheProcessor() {
		ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", server.healthPort()).usePlaintext().build();
		try {
			HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(channel);
			for (String service : new String[] { "liveness", "readiness", ExternalProcessorGrpc.SERVICE_NAME, "" }) {
				assertThat(health.check(HealthCheckRequest.newBuilder().setService(service).build()).getStatus())
					.as(service)
					.isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
			}
		}
		finally {
			channel.shutdownNow();
		}
	}

	private void assertImmediate(EnvoyDataPlane.Stream stream, int status, String code) throws Exception {
		ProcessingResponse response = stream.next();
		assertThat(response.hasImmediateResponse()).as("%s", response).isTrue();
		assertThat(response.getImmediateResponse().getStatus().getCodeValue()).isEqualTo(status);
		String json = response.getImmediateResponse().getBody().toStringUtf8();
		assertThat(json).startsWith("{\"error\":{\"message\":");
		if (code != null) {
			assertThat(json).contains("\"code\":\"" + code + "\"");
		}
		assertThat(stream.closedByPicker()).isTrue();
	}

	private double tokenUsageSum(String type) {
		return meters.find("gen_ai.client.token.usage")
			.tag("gen_ai.token.type", type)
			.summaries()
			.stream()
			.mapToDouble((summary) -> summary.totalAmount())
			.sum();
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}
}
