package io.infergate.routing.openai;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class OpenAiRequestParserTests {

	private final OpenAiRequestParser parser = new OpenAiRequestParser();

	private ParsedRequest parse(String json, InferenceApi api) throws InvalidRequestException {
		return parser.parse(json.getBytes(StandardCharsets.UTF_8), api);
	}

	@Test
	void readsTheFieldsTheGatewayNeedsFromAChatRequest() throws Exception {
		String json = """
				{"model":"llama","temperature":0.2,"stream":true,"max_tokens":64,"user":"u1",
				 "tools":[{"type":"function","function":{"name":"f","parameters":{"model":"not-this"}}}],
				 "messages":[{"role":"system","content":"be brief"},{"role":"user","content":"hi"}]}""";

		ParsedRequest parsed = parse(json, InferenceApi.CHAT_COMPLETIONS);

		assertThat(parsed.model()).isEqualTo("llama");
		assertThat(parsed.stream()).isTrue();
		assertThat(parsed.maxTokens()).isEqualTo(64);
		assertThat(parsed.user()).isEqualTo("u1");
		assertThat(parsed.promptText()).isEqualTo("\u001esystem\u001fbe brief\u001euser\u001fhi");
		assertThat(json.substring(parsed.modelValueStart(), parsed.modelValueEnd())).isEqualTo("\"llama\"");
	}

	@Test
	void readsWhetherAStreamAsksForUsage() throws Exception {
		String messages = ",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}";

		assertThat(parse("{\"model\":\"m\"" + messages, InferenceApi.CHAT_COMPLETIONS).streamOptions())
			.isEqualTo(StreamOptions.ABSENT);
		assertThat(parse("{\"model\":\"m\",\"stream_options\":null" + messages, InferenceApi.CHAT_COMPLETIONS)
			.streamOptions()).isEqualTo(StreamOptions.NULL);
		assertThat(parse("{\"model\":\"m\",\"stream_options\":{\"include_usage\":false,\"x\":[1]}" + messages,
				InferenceApi.CHAT_COMPLETIONS)
			.streamOptions()).isEqualTo(StreamOptions.WITHOUT_USAGE);
		assertThat(parse("{\"model\":\"m\",\"stream_options\":{\"include_usage\":true}" + messages,
				InferenceApi.CHAT_COMPLETIONS)
			.includeUsage()).isTrue();
	}

	@Test
	void maxCompletionTokensWinsOverMaxTokens() throws Exception {
		ParsedRequest parsed = parse("{\"max_completion_tokens\":7,\"model\":\"m\",\"max_tokens\":9,"
				+ "\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}", InferenceApi.CHAT_COMPLETIONS);

		assertThat(parsed.maxTokens()).isEqualTo(7);
		assertThat(parsed.stream()).isFalse();
	}

	@Test
	void joinsTheTextPartsOfMultipartContent() throws Exception {
		ParsedRequest parsed = parse("""
				{"model":"m","messages":[{"content":[{"type":"text","text":"a"},{"type":"image_url",
				"image_url":{"url":"data:x"}},{"type":"text","text":"b"}],"role":"user"},
				{"role":"assistant","content":null,"tool_calls":[]}]}""", InferenceApi.CHAT_COMPLETIONS);

		assertThat(parsed.promptText()).isEqualTo("\u001euser\u001fab\u001eassistant\u001f");
	}

	@Test
	void messageBoundariesChangeThePromptText() throws Exception {
		ParsedRequest split = parse("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"ab\"},"
				+ "{\"role\":\"user\",\"content\":\"c\"}]}", InferenceApi.CHAT_COMPLETIONS);
		ParsedRequest joined = parse("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"a\"},"
				+ "{\"role\":\"user\",\"content\":\"bc\"}]}", InferenceApi.CHAT_COMPLETIONS);

		assertThat(split.promptText()).isNotEqualTo(joined.promptText());
	}

	@Test
	void readsStringAndTokenIdPrompts() throws Exception {
		assertThat(parse("{\"model\":\"m\",\"prompt\":\"once upon\"}", InferenceApi.COMPLETIONS).promptText())
			.isEqualTo("once upon");
		ParsedRequest tokens = parse("{\"model\":\"m\",\"prompt\":[[1,2,3],[4]]}", InferenceApi.COMPLETIONS);
		assertThat(tokens.inputTokens()).isEqualTo(4);
	}

	@Test
	void findsTheModelValueEvenWithEscapes() throws Exception {
		String json = "{ \"messages\":[{\"role\":\"user\",\"content\":\"q\"}], \"model\" : \"a\\\"b\\\\\" }";

		ParsedRequest parsed = parse(json, InferenceApi.CHAT_COMPLETIONS);

		assertThat(parsed.model()).isEqualTo("a\"b\\");
		assertThat(json.substring(parsed.modelValueStart(), parsed.modelValueEnd())).isEqualTo("\"a\\\"b\\\\\"");
	}

	@Test
	void rejectsMalformedJson() {
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> parse("{\"model\":\"m\",", InferenceApi.CHAT_COMPLETIONS))
			.satisfies((ex) -> assertThat(ex.isMalformedJson()).isTrue());
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> parse("[1,2]", InferenceApi.CHAT_COMPLETIONS))
			.satisfies((ex) -> assertThat(ex.isMalformedJson()).isTrue());
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> parse("{\"model\":\"m\",\"prompt\":\"p\"} trailing", InferenceApi.COMPLETIONS))
			.satisfies((ex) -> assertThat(ex.isMalformedJson()).isTrue());
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> parse("", InferenceApi.COMPLETIONS))
			.satisfies((ex) -> assertThat(ex.isMalformedJson()).isTrue());
	}

	@Test
	void namesTheFieldThatIsMissingOrWrong() {
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> parse("{\"messages\":[{\"role\":\"user\",\"content\":\"q\"}]}",
					InferenceApi.CHAT_COMPLETIONS))
			.satisfies((ex) -> assertThat(ex.param()).isEqualTo("model"));
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> parse("{\"model\":\"m\"}", InferenceApi.CHAT_COMPLETIONS))
			.satisfies((ex) -> assertThat(ex.param()).isEqualTo("messages"));
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> parse("{\"model\":\"m\",\"messages\":[]}", InferenceApi.CHAT_COMPLETIONS))
			.satisfies((ex) -> assertThat(ex.param()).isEqualTo("messages"));
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> parse("{\"model\":\"m\",\"prompt\":\"p\",\"max_tokens\":0}", InferenceApi.COMPLETIONS))
			.satisfies((ex) -> assertThat(ex.param()).isEqualTo("max_tokens"));
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> parse("{\"model\":\"m\",\"prompt\":\"p\",\"stream\":\"yes\"}", InferenceApi.COMPLETIONS))
			.satisfies((ex) -> assertThat(ex.param()).isEqualTo("stream"));
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> parse("{\"model\":\"a\",\"prompt\":\"p\",\"model\":\"b\"}", InferenceApi.COMPLETIONS))
			.satisfies((ex) -> assertThat(ex.param()).isEqualTo("model"));
	}

	@Test
	void readsEmbeddingsInputAsStringsOrTokenIds() throws Exception {
		ParsedRequest strings = parse("{\"model\":\"e\",\"input\":[\"abcd\",\"efgh\"],\"encoding_format\":\"base64\"}",
				InferenceApi.EMBEDDINGS);
		ParsedRequest ids = parse("{\"model\":\"e\",\"input\":[[1,2,3],[4,5]]}", InferenceApi.EMBEDDINGS);

		assertThat(strings.promptText()).isEqualTo("abcd\u001eefgh");
		assertThat(strings.inputTokens()).isEqualTo(2);
		assertThat(ids.inputTokens()).isEqualTo(5);
	}

	@Test
	void readsEmbeddingsMessagesAsVllmTakesThem() throws Exception {
		ParsedRequest parsed = parse("{\"model\":\"e\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
				InferenceApi.EMBEDDINGS);

		assertThat(parsed.promptText()).isEqualTo("\u001euser\u001fhi");
	}

	@Test
	void readsTheResponsesInstructionsBeforeItsInputWhereverTheyStand() throws Exception {
		ParsedRequest parsed = parse("""
				{"model":"m","input":[{"role":"user","content":[{"type":"input_text","text":"hi"}]},
				{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"},
				{"type":"function_call_output","call_id":"c1","output":"42"}],
				"instructions":"be brief","max_output_tokens":50,"stream":true}""", InferenceApi.RESPONSES);
		ParsedRequest text = parse("{\"model\":\"m\",\"input\":\"hi\"}", InferenceApi.RESPONSES);

		assertThat(parsed.promptText()).isEqualTo("\u001esystem\u001fbe brief\u001euser\u001fhi\u001etool\u001f42");
		assertThat(parsed.maxTokens()).isEqualTo(50);
		assertThat(parsed.stream()).isTrue();
		assertThat(text.promptText()).isEqualTo("\u001euser\u001fhi");
	}

	@Test
	void countsARerankQueryOncePerDocument() throws Exception {
		// query 8 characters against 3 documents of 4: 3 × 8 + 12 = 36 characters
		ParsedRequest parsed = parse("{\"model\":\"r\",\"query\":\"12345678\",\"documents\":[\"aaaa\",\"bbbb\",\"cccc\"],"
				+ "\"top_n\":2}", InferenceApi.RERANK);

		assertThat(parsed.inputTokens()).isEqualTo(9);
	}

	@Test
	void readsScorePairs() throws Exception {
		ParsedRequest oneToMany = parse("{\"model\":\"s\",\"text_1\":\"12345678\",\"text_2\":[\"aaaa\",\"bbbb\"]}",
				InferenceApi.SCORE);
		ParsedRequest zipped = parse("{\"model\":\"s\",\"text_1\":[\"1234\",\"5678\"],\"text_2\":[\"aaaa\",\"bbbb\"]}",
				InferenceApi.SCORE);

		assertThat(oneToMany.inputTokens()).isEqualTo(6);
		assertThat(zipped.inputTokens()).isEqualTo(4);
	}

	@Test
	void readsTokenizeAndDetokenizeBodies() throws Exception {
		assertThat(parse("{\"model\":\"m\",\"prompt\":\"abcdefgh\"}", InferenceApi.TOKENIZE).inputTokens()).isEqualTo(2);
		assertThat(parse("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}",
				InferenceApi.TOKENIZE).promptText()).isEqualTo("\u001euser\u001fx");
		assertThat(parse("{\"model\":\"m\",\"tokens\":[1,2,3]}", InferenceApi.DETOKENIZE).inputTokens()).isEqualTo(3);
	}

	@Test
	void namesTheMissingInputOfEachApi() {
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> parse("{\"model\":\"e\"}", InferenceApi.EMBEDDINGS))
			.satisfies((ex) -> assertThat(ex.param()).isEqualTo("input"));
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> parse("{\"model\":\"r\",\"query\":\"q\"}", InferenceApi.RERANK))
			.satisfies((ex) -> assertThat(ex.param()).isEqualTo("documents"));
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> parse("{\"model\":\"s\",\"text_2\":\"q\"}", InferenceApi.SCORE))
			.satisfies((ex) -> assertThat(ex.param()).isEqualTo("text_1"));
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> parse("{\"model\":\"m\",\"tokens\":[\"a\"]}", InferenceApi.DETOKENIZE))
			.satisfies((ex) -> assertThat(ex.param()).isEqualTo("tokens"));
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> parse("{\"model\":\"e\",\"input\":\"a\",\"messages\":[{\"role\":\"user\"}]}",
					InferenceApi.EMBEDDINGS))
			.satisfies((ex) -> assertThat(ex.param()).isEqualTo("messages"));
	}

	@Test
	void inputsBeyondTheParserLimitsAreMalformedJson() {
		String chat = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],";
		String deep = chat + "\"tools\":" + "[".repeat(5_000) + "]".repeat(5_000) + "}";
		String longNumber = chat + "\"temperature\":" + "9".repeat(5_000) + "}";
		String longName = chat + "\"" + "n".repeat(100_000) + "\":1}";

		for (String json : new String[] { deep, longNumber, longName }) {
			assertThatExceptionOfType(InvalidRequestException.class)
				.isThrownBy(() -> parse(json, InferenceApi.CHAT_COMPLETIONS))
				.satisfies((ex) -> assertThat(ex.isMalformedJson()).isTrue())
				.satisfies((ex) -> assertThat(ex.getMessage()).startsWith("The request body is not valid JSON"));
		}
	}

	@Test
	void aBodyInUtf16OrUtf32IsRefusedAsNotUtf8() {
		String json = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}";

		for (Charset charset : new Charset[] { StandardCharsets.UTF_16BE,
				StandardCharsets.UTF_16LE, StandardCharsets.UTF_16, Charset.forName("UTF-32BE"),
				Charset.forName("UTF-32LE") }) {
			assertThatExceptionOfType(InvalidRequestException.class)
				.isThrownBy(() -> parser.parse(json.getBytes(charset), InferenceApi.CHAT_COMPLETIONS))
				.satisfies((ex) -> assertThat(ex.isMalformedJson()).isTrue())
				.satisfies((ex) -> assertThat(ex.getMessage()).contains("UTF-8"));
		}
	}

	@Test
	void readsAnIntegerPriorityAndRefusesAnyOtherNamingTheField() throws Exception {
		String messages = ",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}";
		assertThat(parse("{\"model\":\"m\"" + messages, InferenceApi.CHAT_COMPLETIONS).priority()).isNull();
		assertThat(parse("{\"model\":\"m\",\"priority\":null" + messages, InferenceApi.CHAT_COMPLETIONS).priority())
			.isNull();
		assertThat(parse("{\"model\":\"m\",\"priority\":-7" + messages, InferenceApi.CHAT_COMPLETIONS).priority())
			.isEqualTo(-7);
		assertThat(parse("{\"priority\":1000000,\"model\":\"m\"" + messages, InferenceApi.CHAT_COMPLETIONS)
			.priority()).isEqualTo(1_000_000);
		for (String bad : List.of("\"high\"", "1.5", "true", "[1]", "1000001", "-1000001", "2147483648",
				"-2147483648", "1e3")) {
			assertThatExceptionOfType(InvalidRequestException.class)
				.isThrownBy(() -> parse("{\"model\":\"m\",\"priority\":" + bad + messages,
						InferenceApi.CHAT_COMPLETIONS))
				.satisfies((ex) -> {
					assertThat(ex.param()).isEqualTo("priority");
					assertThat(ex.getMessage()).isEqualTo("'priority' must be an integer from -1000000 to 1000000.");
				});
		}
	}

	@Test
	void readsACacheSaltAndRefusesAnEmptyOrNonStringOneNamingTheField() throws Exception {
		String messages = ",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}";
		assertThat(parse("{\"model\":\"m\"" + messages, InferenceApi.CHAT_COMPLETIONS).cacheSalt()).isNull();
		assertThat(parse("{\"model\":\"m\",\"cache_salt\":null" + messages, InferenceApi.CHAT_COMPLETIONS)
			.cacheSalt()).isNull();
		assertThat(parse("{\"cache_salt\":\"tenant-a\",\"model\":\"m\"" + messages, InferenceApi.CHAT_COMPLETIONS)
			.cacheSalt()).isEqualTo("tenant-a");
		assertThat(parse("{\"model\":\"m\",\"cache_salt\":\"s\",\"prompt\":\"x\"}", InferenceApi.COMPLETIONS)
			.cacheSalt()).isEqualTo("s");
		for (String bad : List.of("\"\"", "1", "true", "[\"a\"]", "{}")) {
			assertThatExceptionOfType(InvalidRequestException.class)
				.isThrownBy(() -> parse("{\"model\":\"m\",\"cache_salt\":" + bad + messages,
						InferenceApi.CHAT_COMPLETIONS))
				.satisfies((ex) -> assertThat(ex.param()).isEqualTo("cache_salt"));
		}
	}
}
