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

class ChatCompletionsHttpTests {

	private static SimulatedModelServer server;

	private static SimHttpClient http;

	@BeforeAll
	static void startServer() {
		server = new SimulatedModelServer(SimulatorConfig.builder("test-model")
			.engine(EngineConfig.builder()
				.perfProfile(PerfProfile.ZERO)
				.loraModules(List.of("support-lora"))
				.loraLoadDelayMillis(0)
				.build())
			.build()).start();
		http = new SimHttpClient(server);
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	@Test
	void chatCompletionHasOpenAiShapeExactlyMaxTokensAndUsage() {
		HttpResponse<String> response = http.post("/v1/chat/completions",
				SimHttpClient.chatBody("test-model", "Hello, simulator", 7, false));

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
		JsonNode body = SimHttpClient.json(response.body());
		assertThat(body.get("id").stringValue()).startsWith("chatcmpl-");
		assertThat(body.get("object").stringValue()).isEqualTo("chat.completion");
		assertThat(body.get("created").isIntegralNumber()).isTrue();
		assertThat(body.get("model").stringValue()).isEqualTo("test-model");
		JsonNode choice = body.get("choices").get(0);
		assertThat(choice.get("index").intValue()).isZero();
		assertThat(choice.get("message").get("role").stringValue()).isEqualTo("assistant");
		assertThat(choice.get("message").get("content").stringValue()).isNotBlank();
		assertThat(choice.get("finish_reason").stringValue()).isEqualTo("length");
		JsonNode usage = body.get("usage");
		assertThat(usage.get("completion_tokens").intValue()).isEqualTo(7);
		assertThat(usage.get("prompt_tokens").intValue()).isPositive();
		assertThat(usage.get("total_tokens").intValue())
			.isEqualTo(usage.get("prompt_tokens").intValue() + usage.get("completion_tokens").intValue());
	}

	@Test
	void aClientsRequestIdBecomesTheResponseIdAsInVllm() {
		HttpResponse<String> response = http.send(http.request("/v1/chat/completions")
			.header(GenerationHandler.REQUEST_ID_HEADER, "req-42")
			.POST(java.net.http.HttpRequest.BodyPublishers.ofString(SimHttpClient.chatBody("test-model", "hi", 2, false)))
			.build());
		HttpResponse<String> unsafe = http.send(http.request("/v1/chat/completions")
			.header(GenerationHandler.REQUEST_ID_HEADER, "a\"b")
			.POST(java.net.http.HttpRequest.BodyPublishers.ofString(SimHttpClient.chatBody("test-model", "hi", 2, false)))
			.build());

		assertThat(SimHttpClient.json(response.body()).get("id").stringValue()).isEqualTo("chatcmpl-req-42");
		assertThat(SimHttpClient.json(unsafe.body()).get("id").stringValue()).startsWith("chatcmpl-")
			.doesNotContain("\"");
	}

	@Test
	void maxCompletionTokensTakesPrecedenceOverMaxTokensAndSixteenIsTheDefault() {
		JsonNode limited = SimHttpClient.json(http.post("/v1/chat/completions",
				"{\"model\":\"test-model\",\"max_tokens\":9,\"max_completion_tokens\":3,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")
			.body());
		JsonNode unlimited = SimHttpClient.json(
				http.post("/v1/chat/completions", "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}").body());

		assertThat(limited.get("usage").get("completion_tokens").intValue()).isEqualTo(3);
		assertThat(unlimited.get("usage").get("completion_tokens").intValue()).isEqualTo(16);
		assertThat(unlimited.get("model").stringValue()).isEqualTo("test-model");
	}

	@Test
	void completionsAcceptATextPromptOrTokenIds() {
		JsonNode text = SimHttpClient.json(http.post("/v1/completions",
				"{\"model\":\"test-model\",\"prompt\":\"Once upon a time\",\"max_tokens\":4}").body());
		JsonNode tokens = SimHttpClient.json(http.post("/v1/completions",
				"{\"model\":\"test-model\",\"prompt\":[1,2,3,4,5],\"max_tokens\":2}").body());

		assertThat(text.get("object").stringValue()).isEqualTo("text_completion");
		assertThat(text.get("id").stringValue()).startsWith("cmpl-");
		assertThat(text.get("choices").get(0).get("text").stringValue()).isNotBlank();
		assertThat(text.get("usage").get("prompt_tokens").intValue()).isEqualTo(4);
		assertThat(text.get("usage").get("completion_tokens").intValue()).isEqualTo(4);
		assertThat(tokens.get("usage").get("prompt_tokens").intValue()).isEqualTo(5);
	}

	@Test
	void streamSendsRoleThenOneChunkPerTokenAndEndsWithUsageAndDone() {
		String body = "{\"model\":\"test-model\",\"max_tokens\":5,\"stream\":true,"
				+ "\"stream_options\":{\"include_usage\":true},\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
		HttpResponse<Stream<String>> response = http.postForLines("/v1/chat/completions", body);

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("text/event-stream"));
		List<String> events = response.body().filter((line) -> !line.isEmpty()).toList();
		assertThat(events).allMatch((line) -> line.startsWith("data: "));
		assertThat(events.get(events.size() - 1)).isEqualTo("data: [DONE]");
		List<JsonNode> chunks = events.subList(0, events.size() - 1).stream()
			.map((line) -> SimHttpClient.json(line.substring(6)))
			.toList();
		assertThat(chunks).hasSize(1 + 5 + 1);
		assertThat(chunks).allSatisfy((chunk) -> {
			assertThat(chunk.get("object").stringValue()).isEqualTo("chat.completion.chunk");
			assertThat(chunk.get("id").stringValue()).isEqualTo(chunks.get(0).get("id").stringValue());
			assertThat(chunk.get("model").stringValue()).isEqualTo("test-model");
		});
		assertThat(chunks.get(0).get("choices").get(0).get("delta").get("role").stringValue()).isEqualTo("assistant");
		assertThat(chunks.get(5).get("choices").get(0).get("finish_reason").stringValue()).isEqualTo("length");
		assertThat(chunks.get(1).get("choices").get(0).get("finish_reason").isNull()).isTrue();
		JsonNode usageChunk = chunks.get(6);
		assertThat(usageChunk.get("choices").isEmpty()).isTrue();
		assertThat(usageChunk.get("usage").get("completion_tokens").intValue()).isEqualTo(5);
	}

	@Test
	void streamWithoutIncludeUsageHasNoUsageChunk() {
		String body = "{\"model\":\"test-model\",\"max_tokens\":3,\"stream\":true,\"prompt\":\"abc\"}";
		List<String> events = http.postForLines("/v1/completions", body).body().filter((line) -> !line.isEmpty()).toList();

		assertThat(events).hasSize(3 + 1).last().isEqualTo("data: [DONE]");
		assertThat(events).noneMatch((line) -> line.contains("\"usage\""));
		assertThat(events.get(0)).contains("\"object\":\"text_completion\"");
	}

	@Test
	void modelsListsTheBaseModelAndEachAdapterWithTheBaseAsParent() {
		JsonNode models = SimHttpClient.json(http.get("/v1/models").body());

		assertThat(models.get("object").stringValue()).isEqualTo("list");
		JsonNode data = models.get("data");
		assertThat(data.size()).isEqualTo(2);
		assertThat(data.get(0).get("id").stringValue()).isEqualTo("test-model");
		assertThat(data.get(0).get("parent").isNull()).isTrue();
		assertThat(data.get(1).get("id").stringValue()).isEqualTo("support-lora");
		assertThat(data.get(1).get("parent").stringValue()).isEqualTo("test-model");
		assertThat(data.get(1).get("object").stringValue()).isEqualTo("model");
	}

	@Test
	void anAdapterIsServedUnderItsOwnModelName() {
		JsonNode body = SimHttpClient.json(http.post("/v1/chat/completions",
				SimHttpClient.chatBody("support-lora", "hi", 2, false)).body());

		assertThat(body.get("model").stringValue()).isEqualTo("support-lora");
	}

	@Test
	void healthAnswers200AndUnknownPathsAJson404() {
		assertThat(http.get("/health").statusCode()).isEqualTo(200);
		HttpResponse<String> unknown = http.get("/v2/nothing");
		assertThat(unknown.statusCode()).isEqualTo(404);
		assertThat(SimHttpClient.json(unknown.body()).get("error").get("message").stringValue()).contains("/v2/nothing");
	}

	@Test
	void keepAliveConnectionsServeManyRequests() {
		for (int i = 0; i < 50; i++) {
			assertThat(http.post("/v1/completions", "{\"prompt\":\"x\",\"max_tokens\":1}").statusCode()).isEqualTo(200);
		}
	}
}
