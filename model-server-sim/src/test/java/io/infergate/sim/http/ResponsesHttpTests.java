package io.infergate.sim.http;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.Stream;

import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.SimulatorConfig;
import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.PerfProfile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

class ResponsesHttpTests {

	private static SimulatedModelServer server;

	private static SimHttpClient http;

	@BeforeAll
	static void startServer() {
		server = new SimulatedModelServer(SimulatorConfig.builder("llama")
			.engine(EngineConfig.builder().perfProfile(PerfProfile.ZERO).maxModelLen(64).build())
			.build()).start();
		http = new SimHttpClient(server);
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	@Test
	void answersAResponseObjectWithOneAssistantMessage() {
		HttpResponse<String> response = http.post("/v1/responses", "{\"model\":\"llama\",\"instructions\":\"be brief\","
				+ "\"input\":[{\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"hi\"}]}],"
				+ "\"max_output_tokens\":5}");

		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		JsonNode body = SimHttpClient.json(response.body());
		assertThat(body.get("object").stringValue()).isEqualTo("response");
		assertThat(body.get("status").stringValue()).isEqualTo("completed");
		JsonNode message = body.get("output").get(0);
		assertThat(message.get("role").stringValue()).isEqualTo("assistant");
		assertThat(message.get("content").get(0).get("text").stringValue()).isEqualTo(FillerText.of(5));
		assertThat(body.get("usage").get("output_tokens").intValue()).isEqualTo(5);
	}

	@Test
	void streamsTypedEventsEndingWithTheCompletedResponse() {
		HttpResponse<Stream<String>> response = http.postForLines("/v1/responses",
				"{\"model\":\"llama\",\"input\":\"hi\",\"max_output_tokens\":3,\"stream\":true}");
		List<String> events = response.body().filter((line) -> line.startsWith("event: ")).toList();

		assertThat(events).containsExactly("event: response.created", "event: response.output_item.added",
				"event: response.content_part.added", "event: response.output_text.delta",
				"event: response.output_text.delta", "event: response.output_text.delta",
				"event: response.output_text.done", "event: response.content_part.done",
				"event: response.output_item.done", "event: response.completed");
	}

	@Test
	void refusesAPromptLongerThanTheModelLengthInVllmsWords() {
		HttpResponse<String> response = http.post("/v1/responses",
				"{\"model\":\"llama\",\"input\":\"" + "x".repeat(300) + "\"}");

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).contains("maximum context length is 64 tokens");
	}
}
