package io.infergate.sim.http;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;
import java.util.List;
import java.util.stream.Collectors;

import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.SimulatorConfig;
import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.PerfProfile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** Embeddings, rerank, score, tokenize and detokenize, in the shapes vLLM answers them. */
class EncodingApisHttpTests {

	private static SimulatedModelServer server;

	private static SimHttpClient http;

	@BeforeAll
	static void startServer() {
		server = new SimulatedModelServer(SimulatorConfig.builder("embedder")
			.engine(EngineConfig.builder()
				.perfProfile(PerfProfile.ZERO)
				.maxModelLen(64)
				.loraModules(List.of("domain-lora"))
				.build())
			.build()).start();
		http = new SimHttpClient(server);
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	@Test
	void embedsEachInputAsTheSameUnitVectorEveryTime() {
		JsonNode first = ok(http.post("/v1/embeddings", "{\"model\":\"embedder\",\"input\":[\"hello\",\"world\"]}"));
		JsonNode again = ok(http.post("/v1/embeddings", "{\"model\":\"embedder\",\"input\":\"hello\"}"));

		assertThat(first.get("object").stringValue()).isEqualTo("list");
		assertThat(first.get("data")).hasSize(2);
		JsonNode vector = first.get("data").get(0).get("embedding");
		assertThat(vector).hasSize(EmbeddingsHandler.DIMENSIONS);
		double norm = 0;
		for (JsonNode value : vector.values()) {
			norm += value.doubleValue() * value.doubleValue();
		}
		assertThat(norm).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
		assertThat(again.get("data").get(0).get("embedding")).isEqualTo(vector);
		assertThat(first.get("data").get(1).get("embedding")).isNotEqualTo(vector);
		// a token per 4 characters, rounded up: "hello" and "world" are 2 tokens each
		assertThat(first.get("usage").get("prompt_tokens").intValue()).isEqualTo(4);
	}

	@Test
	void encodesEmbeddingsAsBase64LittleEndianFloatsOnRequest() {
		JsonNode floats = ok(http.post("/v1/embeddings", "{\"model\":\"embedder\",\"input\":\"hi\",\"dimensions\":4}"));
		JsonNode base64 = ok(http.post("/v1/embeddings",
				"{\"model\":\"embedder\",\"input\":\"hi\",\"dimensions\":4,\"encoding_format\":\"base64\"}"));

		ByteBuffer bytes = ByteBuffer
			.wrap(Base64.getDecoder().decode(base64.get("data").get(0).get("embedding").stringValue()))
			.order(ByteOrder.LITTLE_ENDIAN);
		for (int i = 0; i < 4; i++) {
			assertThat(bytes.getFloat()).isEqualTo(floats.get("data").get(0).get("embedding").get(i).floatValue());
		}
	}

	@Test
	void refusesAnInputLongerThanTheModelLengthInVllmsWords() {
		HttpResponse<String> response = http.post("/v1/embeddings",
				"{\"model\":\"embedder\",\"input\":\"" + "x".repeat(300) + "\"}");

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(SimHttpClient.json(response.body()).get("error").get("message").stringValue()).isEqualTo(
				"This model's maximum context length is 64 tokens. However, you requested 75 tokens in the input for "
						+ "embedding generation. Please reduce the length of the input.");
	}

	@Test
	void embedsWithALoraAdapterAndRefusesAnUnknownModel() {
		assertThat(ok(http.post("/v1/embeddings", "{\"model\":\"domain-lora\",\"input\":\"x\"}")).get("model")
			.stringValue()).isEqualTo("domain-lora");
		assertThat(http.post("/v1/embeddings", "{\"model\":\"other\",\"input\":\"x\"}").statusCode()).isEqualTo(404);
	}

	@Test
	void ranksTheDocumentThatSharesMostWithTheQueryFirst() {
		JsonNode reranked = ok(http.post("/v1/rerank", "{\"model\":\"embedder\",\"query\":\"abcdefgh\","
				+ "\"documents\":[\"zzzzyyyy\",\"abcdefgh\",\"abcdxxxx\"],\"top_n\":2}"));

		assertThat(reranked.get("results").valueStream().map((r) -> r.get("index").intValue())
			.collect(Collectors.toList())).containsExactly(1, 2);
		assertThat(reranked.get("results").get(0).get("relevance_score").doubleValue()).isEqualTo(1.0);
		assertThat(reranked.get("results").get(0).get("document").get("text").stringValue()).isEqualTo("abcdefgh");
	}

	@Test
	void scoresOneTextAgainstEachOfTheOthers() {
		JsonNode scored = ok(http.post("/v1/score",
				"{\"model\":\"embedder\",\"text_1\":\"abcdefgh\",\"text_2\":[\"abcdefgh\",\"zzzzzzzz\"]}"));

		assertThat(scored.get("object").stringValue()).isEqualTo("list");
		assertThat(scored.get("data").get(0).get("score").doubleValue()).isEqualTo(1.0);
		assertThat(scored.get("data").get(1).get("score").doubleValue()).isEqualTo(0.0);
	}

	@Test
	void tokenizesWithTheSimulatorsTokenizerAndDetokenizesToFiller() {
		JsonNode tokenized = ok(http.post("/tokenize", "{\"model\":\"embedder\",\"prompt\":\"abcdefgh\"}"));
		JsonNode detokenized = ok(http.post("/detokenize", "{\"model\":\"embedder\",\"tokens\":[1,2,3]}"));

		assertThat(tokenized.get("count").intValue()).isEqualTo(2);
		assertThat(tokenized.get("max_model_len").intValue()).isEqualTo(64);
		// token i is 32-bit FNV-1a of chars [4i, 4i+4), top bit cleared; computed apart from the simulator, by a
		// Python FNV-1a that gives the published 0xe40c292c for "a" and 0xbf9cf968 for "foobar":
		// FNV-1a("abcd") = 0xce3479bd, & 0x7fffffff = 1312061885; FNV-1a("efgh") = 0x212fe1a5 = 556786085
		assertThat(tokenized.get("tokens").get(0).intValue()).isEqualTo(1_312_061_885);
		assertThat(tokenized.get("tokens").get(1).intValue()).isEqualTo(556_786_085);
		// the first three words of the filler
		assertThat(detokenized.get("prompt").stringValue()).isEqualTo(" The quick brown");
	}

	@Test
	void injectedFaultsAnswerEncodingRequestsToo() {
		server.faults().failNextGenerations(1, 429);

		assertThat(http.post("/v1/embeddings", "{\"model\":\"embedder\",\"input\":\"x\"}").statusCode()).isEqualTo(429);
		assertThat(http.post("/v1/embeddings", "{\"model\":\"embedder\",\"input\":\"x\"}").statusCode()).isEqualTo(200);
	}

	private static JsonNode ok(HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return SimHttpClient.json(response.body());
	}
}
