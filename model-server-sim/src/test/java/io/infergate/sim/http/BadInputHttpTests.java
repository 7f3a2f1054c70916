package io.infergate.sim.http;

import java.net.http.HttpResponse;

import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.SimulatorConfig;
import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.PerfProfile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

class BadInputHttpTests {

	private static SimulatedModelServer server;

	private static SimHttpClient http;

	@BeforeAll
	static void startServer() {
		server = new SimulatedModelServer(SimulatorConfig.builder("test-model")
			.engine(EngineConfig.builder().perfProfile(PerfProfile.ZERO).maxModelLen(256).build())
			.build()).start();
		http = new SimHttpClient(server);
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	/** Asserts OpenAI's error shape and returns the {@code error} object. */
	private static JsonNode assertOpenAiError(HttpResponse<String> response, int status) {
		assertThat(response.statusCode()).isEqualTo(status);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
		JsonNode error = SimHttpClient.json(response.body()).get("error");
		assertThat(error).isNotNull();
		assertThat(error.get("message").stringValue()).isNotBlank();
		assertThat(error.get("type").stringValue()).isNotBlank();
		assertThat(error.has("param")).isTrue();
		assertThat(error.get("code").intValue()).isEqualTo(status);
		return error;
	}

	@Test
	void malformedJsonIs400() {
		JsonNode error = assertOpenAiError(http.post("/v1/chat/completions", "{\"messages\": [}"), 400);

		assertThat(error.get("message").stringValue()).startsWith("Invalid JSON");
	}

	@Test
	void aBodyThatIsNotAnObjectIs400() {
		assertOpenAiError(http.post("/v1/completions", "[1,2]"), 400);
	}

	@Test
	void missingMessagesOrPromptIs400() {
		assertThat(assertOpenAiError(http.post("/v1/chat/completions", "{\"model\":\"test-model\"}"), 400)
			.get("param").stringValue()).isEqualTo("messages");
		assertThat(assertOpenAiError(http.post("/v1/completions", "{\"model\":\"test-model\"}"), 400)
			.get("param").stringValue()).isEqualTo("prompt");
	}

	@Test
	void maxTokensBelowOneIs400() {
		JsonNode error = assertOpenAiError(
				http.post("/v1/chat/completions", SimHttpClient.chatBody("test-model", "hi", 0, false)), 400);

		assertThat(error.get("param").stringValue()).isEqualTo("max_tokens");
	}

	@Test
	void aPromptLongerThanTheModelLengthIs400InVllmsWords() {
		JsonNode error = assertOpenAiError(
				http.post("/v1/completions", "{\"prompt\":\"" + "word ".repeat(300) + "\",\"max_tokens\":1}"), 400);

		assertThat(error.get("message").stringValue()).startsWith("This model's maximum context length is 256 tokens.");
	}

	@Test
	void anUnknownModelIs404InVllmsWords() {
		JsonNode error = assertOpenAiError(
				http.post("/v1/chat/completions", SimHttpClient.chatBody("gpt-unknown", "hi", 1, false)), 404);

		assertThat(error.get("message").stringValue()).isEqualTo("The model `gpt-unknown` does not exist.");
	}

	@Test
	void aWrongMethodIs405() {
		assertOpenAiError(http.get("/v1/chat/completions"), 405);
	}

	@Test
	void aNonBooleanStreamFlagIs400() {
		assertOpenAiError(http.post("/v1/completions", "{\"prompt\":\"x\",\"stream\":\"yes\"}"), 400);
	}

	@Test
	void aNonzeroPriorityIs400InVllmsWordsWhenPrioritySchedulingIsOff() {
		JsonNode error = assertOpenAiError(
				http.post("/v1/completions", "{\"prompt\":\"x\",\"max_tokens\":1,\"priority\":3}"), 400);

		assertThat(error.get("message").stringValue())
			.isEqualTo("Got priority 3 but Priority scheduling is not enabled.");
		assertThat(error.get("type").stringValue()).isEqualTo("BadRequestError");
		assertThat(http.post("/v1/completions", "{\"prompt\":\"x\",\"max_tokens\":1,\"priority\":0}").statusCode())
			.isEqualTo(200);
	}

	@Test
	void aPriorityThatIsNotAnIntegerIs400() {
		assertThat(assertOpenAiError(http.post("/v1/chat/completions",
				"{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"priority\":\"high\"}"), 400)
			.get("param")
			.stringValue()).isEqualTo("priority");
	}

	@Test
	void anEmptyOrNonStringCacheSaltIs400AndAStringOneIsServed() {
		for (String bad : new String[] { "\"\"", "7", "[\"a\"]" }) {
			assertThat(assertOpenAiError(http.post("/v1/chat/completions",
					"{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"cache_salt\":" + bad + "}"), 400)
				.get("param")
				.stringValue()).isEqualTo("cache_salt");
		}
		assertThat(http.post("/v1/completions", "{\"prompt\":\"x\",\"max_tokens\":1,\"cache_salt\":\"t\"}")
			.statusCode()).isEqualTo(200);
	}
}
