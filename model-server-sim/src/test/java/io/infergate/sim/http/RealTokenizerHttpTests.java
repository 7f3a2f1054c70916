package io.infergate.sim.http;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.infergate.kvevents.AllBlocksCleared;
import io.infergate.kvevents.BlockStored;
import io.infergate.kvevents.KvCacheEvent;
import io.infergate.kvevents.KvEventCodec;
import io.infergate.kvevents.KvEventFrames;
import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.SimulatorConfig;
import io.infergate.sim.TestTokenizers;
import io.infergate.sim.engine.ChatPrompt;
import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.PerfProfile;
import io.infergate.sim.engine.PrefixBlockHasher;
import io.infergate.sim.engine.PromptEncoder;
import io.infergate.sim.kvevents.KvEventPublisher;
import io.infergate.simtokenizer.StandInChatTemplate;
import io.infergate.tokenizers.ModelTokenizer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code --tokenizer}, every endpoint tokenizes as vLLM does with the model's own tokenizer and chat template:
 * real prompt token counts, real token ids in {@code /tokenize} and in the published KV-cache events. Run over HTTP
 * against simulators serving Qwen3's and Llama 3.1's tokenizers.
 */
class RealTokenizerHttpTests {

	private static final List<Map<String, Object>> CONVERSATION = List.of(
			Map.of("role", "system", "content", "You are a terse assistant."),
			Map.of("role", "user", "content", "What is the capital of France?"),
			Map.of("role", "assistant", "content", "Paris."),
			Map.of("role", "user", "content", List.of(Map.of("type", "text", "text", "And of Italy?"))));

	private static final List<Map<String, Object>> TOOLS = List.of(Map.of("type", "function", "function",
			Map.of("name", "get_weather", "description", "The weather in a city.", "parameters",
					Map.of("type", "object", "properties", Map.of("city", Map.of("type", "string")), "required",
							List.of("city")))));

	private static SimulatedModelServer qwen3;

	private static SimulatedModelServer llama31;

	/** A served model: its server and, to compare with, its tokenizer loaded on its own. */
	enum Model {

		QWEN3(new int[] { 9707, 1879 }),

		LLAMA31(new int[] { 128000, 9906, 1917 });

		/** The token ids of the completions prompt "Hello world". */
		final int[] helloWorld;

		Model(int[] helloWorld) {
			this.helloWorld = helloWorld;
		}

		SimHttpClient http() {
			return new SimHttpClient((this == QWEN3) ? qwen3 : llama31);
		}

		ModelTokenizer tokenizer() {
			return TestTokenizers.load((this == QWEN3) ? TestTokenizers.qwen3() : TestTokenizers.llama31());
		}
	}

	@BeforeAll
	static void startServers() {
		qwen3 = start(SimulatorConfig.builder("test-model"), TestTokenizers.qwen3(), null);
		llama31 = start(SimulatorConfig.builder("test-model"), TestTokenizers.llama31(), null);
	}

	@AfterAll
	static void stopServers() {
		if (qwen3 != null) {
			qwen3.close();
		}
		if (llama31 != null) {
			llama31.close();
		}
	}

	private static SimulatedModelServer start(SimulatorConfig.Builder config, Path tokenizer, Path chatTemplate) {
		return new SimulatedModelServer(config.engine(EngineConfig.builder().perfProfile(PerfProfile.ZERO).build())
			.promptEncoder(PromptEncoder.load(tokenizer, chatTemplate))
			.build()).start();
	}

	@ParameterizedTest
	@EnumSource(Model.class)
	void aChatCompletionCountsThePromptTokensOfTheModelsChatTemplate(Model model) {
		JsonNode completion = ok(model.http().post("/v1/chat/completions", body(Map.of("messages", CONVERSATION))));

		int expected = model.tokenizer().encodeChat(CONVERSATION, null, Map.of()).length;
		assertThat(completion.at("/usage/prompt_tokens").intValue()).isEqualTo(expected);
		assertThat(completion.at("/usage/completion_tokens").intValue()).isEqualTo(1);
	}

	@ParameterizedTest
	@EnumSource(Model.class)
	void aCompletionsPromptHasTheModelsTokenIdsWithItsSpecialTokens(Model model) {
		JsonNode tokenized = ok(model.http().post("/tokenize", body(Map.of("prompt", "Hello world"))));
		JsonNode completion = ok(model.http().post("/v1/completions", body(Map.of("prompt", "Hello world"))));
		JsonNode inArray = ok(model.http().post("/v1/completions", body(Map.of("prompt", List.of("Hello world")))));

		assertThat(ids(tokenized.get("tokens"))).containsExactly(model.helloWorld);
		assertThat(tokenized.get("count").intValue()).isEqualTo(model.helloWorld.length);
		assertThat(completion.at("/usage/prompt_tokens").intValue()).isEqualTo(model.helloWorld.length);
		assertThat(inArray.at("/usage/prompt_tokens").intValue()).isEqualTo(model.helloWorld.length);
	}

	@ParameterizedTest
	@EnumSource(Model.class)
	void aPromptOfTokenIdsIsTakenAsGiven(Model model) {
		JsonNode completion = ok(model.http().post("/v1/completions", body(Map.of("prompt", List.of(1, 2, 3, 4, 5)))));

		assertThat(completion.at("/usage/prompt_tokens").intValue()).isEqualTo(5);
	}

	@Test
	void tokenizeRendersChatMessagesWithTheGenerationPromptAndNoSpecialTokens() {
		List<Map<String, Object>> messages = List.of(Map.of("role", "user", "content", "Hi"));

		int[] tokens = ids(ok(Model.QWEN3.http().post("/tokenize", body(Map.of("messages", messages)))).get("tokens"));
		int[] withoutPrompt = ids(ok(Model.QWEN3.http()
			.post("/tokenize", body(Map.of("messages", messages, "add_generation_prompt", false)))).get("tokens"));

		assertThat(tokens).startsWith(151644).endsWith(151644, 77091, 198);
		assertThat(tokens).containsExactly(Model.QWEN3.tokenizer().encodeChat(messages, null, Map.of()));
		assertThat(withoutPrompt).containsExactly(Arrays.copyOf(tokens, tokens.length - 3));
	}

	@Test
	void tokenizeHonoursAddSpecialTokensAsVllmDoes() {
		List<Map<String, Object>> messages = List.of(Map.of("role", "user", "content", "Hi"));
		SimHttpClient http = Model.LLAMA31.http();

		int[] prompt = ids(ok(http.post("/tokenize", body(Map.of("prompt", "Hello world", "add_special_tokens", false))))
			.get("tokens"));
		int[] chat = ids(ok(http.post("/tokenize", body(Map.of("messages", messages)))).get("tokens"));
		int[] chatWithSpecialTokens = ids(ok(http.post("/tokenize",
				body(Map.of("messages", messages, "add_special_tokens", true)))).get("tokens"));

		assertThat(prompt).containsExactly(9906, 1917);
		// Llama's template writes <|begin_of_text|> itself; adding special tokens adds a second one, as in vLLM
		assertThat(chat).startsWith(128000);
		assertThat(chat[1]).isNotEqualTo(128000);
		assertThat(chatWithSpecialTokens).startsWith(128000, 128000).hasSize(chat.length + 1);
	}

	@Test
	void toolsAndChatTemplateKwargsReachTheTemplate() {
		List<Map<String, Object>> messages = List.of(Map.of("role", "user", "content", "Weather in Paris?"));
		ModelTokenizer tokenizer = Model.QWEN3.tokenizer();

		int[] noThinking = ids(ok(Model.QWEN3.http().post("/tokenize", body(Map.of("messages", messages,
				"chat_template_kwargs", Map.of("enable_thinking", false))))).get("tokens"));
		int[] withTools = ids(ok(Model.QWEN3.http().post("/tokenize", body(Map.of("messages", messages, "tools",
				TOOLS)))).get("tokens"));
		JsonNode completion = ok(Model.QWEN3.http()
			.post("/v1/chat/completions", body(Map.of("messages", messages, "tools", TOOLS))));

		assertThat(noThinking).containsExactly(tokenizer.encodeChat(messages, null, Map.of("enable_thinking", false)));
		assertThat(tokenizer.decode(noThinking)).endsWith("<|im_start|>assistant\n<think>\n\n</think>\n\n");
		assertThat(withTools).containsExactly(tokenizer.encodeChat(messages, TOOLS, Map.of()));
		assertThat(tokenizer.decode(withTools)).contains("get_weather");
		assertThat(completion.at("/usage/prompt_tokens").intValue()).isEqualTo(withTools.length);
	}

	@ParameterizedTest
	@EnumSource(Model.class)
	void detokenizeDecodesTheTokens(Model model) {
		JsonNode decoded = ok(model.http().post("/detokenize", body(Map.of("tokens", model.helloWorld))));

		assertThat(decoded.get("prompt").stringValue())
			.isEqualTo((model == Model.QWEN3) ? "Hello world" : "<|begin_of_text|>Hello world");
	}

	@Test
	void embeddingsScoreAndRerankCountTheModelsTokens() {
		SimHttpClient http = Model.LLAMA31.http();
		List<Map<String, Object>> messages = List.of(Map.of("role", "user", "content", "Hello world"));
		ModelTokenizer tokenizer = Model.LLAMA31.tokenizer();

		JsonNode embeddings = ok(http.post("/v1/embeddings", body(Map.of("input", List.of("Hello world", "Hello")))));
		JsonNode chatEmbedding = ok(http.post("/v1/embeddings", body(Map.of("messages", messages))));
		JsonNode score = ok(http.post("/v1/score", body(Map.of("text_1", "Hello world", "text_2", "Hello world"))));
		JsonNode rerank = ok(http.post("/v1/rerank",
				body(Map.of("query", "Hello world", "documents", List.of("Hello", "Hello world")))));

		assertThat(embeddings.at("/usage/prompt_tokens").intValue()).isEqualTo(3 + 2);
		// vLLM renders an embedding's messages without the generation prompt unless asked for it
		assertThat(chatEmbedding.at("/usage/prompt_tokens").intValue())
			.isEqualTo(tokenizer.encode(tokenizer.renderChat(messages, null, Map.of(), false), false).length);
		assertThat(score.at("/usage/prompt_tokens").intValue()).isEqualTo(3 + 3);
		assertThat(rerank.at("/usage/total_tokens").intValue()).isEqualTo((3 + 2) + (3 + 3));
		assertThat(rerank.at("/results/0/index").intValue()).isEqualTo(1);
	}

	@Test
	void aResponsesRequestIsRenderedAsItsConversation() {
		JsonNode response = ok(Model.QWEN3.http().post("/v1/responses", body(Map.of("instructions", "Be brief.",
				"input", List.of(Map.of("role", "user", "content", List.of(Map.of("type", "input_text", "text",
						"What is 2 + 2?"))))))));

		List<Map<String, Object>> conversation = List.of(Map.of("role", "system", "content", "Be brief."),
				Map.of("role", "user", "content", "What is 2 + 2?"));
		assertThat(response.at("/usage/input_tokens").intValue())
			.isEqualTo(Model.QWEN3.tokenizer().encodeChat(conversation, null, Map.of()).length);
	}

	@Test
	void aRepeatedConversationTakesItsFullBlocksOfRealTokensFromThePrefixCache() {
		List<Map<String, Object>> messages = List.of(Map.of("role", "user", "content",
				"Tell me about the history of the printing press in Europe. ".repeat(6)));
		int promptTokens = Model.QWEN3.tokenizer().encodeChat(messages, null, Map.of()).length;
		SimHttpClient http = Model.QWEN3.http();

		ok(http.post("/v1/chat/completions", body(Map.of("messages", messages))));
		JsonNode again = ok(http.post("/v1/chat/completions", body(Map.of("messages", messages))));

		int cached = (promptTokens - 1) / 16 * 16;
		assertThat(cached).isPositive();
		assertThat(again.at("/usage/prompt_tokens_details/cached_tokens").intValue()).isEqualTo(cached);
		assertThat(qwen3.cachedPrefixTokens(ChatPrompt.of(List.of(new StandInChatTemplate.Message("user",
				(String) messages.get(0).get("content")))), null)).isEqualTo(cached);
	}

	@Test
	void malformedTemplateFieldsAreTheClientsBadRequest() {
		List<Map<String, Object>> messages = List.of(Map.of("role", "user", "content", "Hi"));

		var kwargs = Model.QWEN3.http()
			.post("/v1/chat/completions", body(Map.of("messages", messages, "chat_template_kwargs", "thinking")));
		var tools = Model.QWEN3.http().post("/tokenize", body(Map.of("messages", messages, "tools", "all")));

		assertThat(kwargs.statusCode()).isEqualTo(400);
		JsonNode error = SimHttpClient.json(kwargs.body()).get("error");
		assertThat(error.get("type").stringValue()).isEqualTo("BadRequestError");
		assertThat(error.get("code").intValue()).isEqualTo(400);
		assertThat(error.get("message").stringValue()).contains("chat_template_kwargs");
		assertThat(tools.statusCode()).isEqualTo(400);
		assertThat(SimHttpClient.json(tools.body()).at("/error/message").stringValue()).contains("tools");
	}

	@Test
	void aChatTemplateFileReplacesTheTokenizersAndItsErrorsAreBadRequests(@TempDir Path directory)
			throws IOException {
		Path template = Files.writeString(directory.resolve("template.jinja"), """
				{%- for message in messages -%}
				{%- if message.role == 'system' -%}{{ raise_exception('System messages are not supported.') }}{%- endif -%}
				{{ '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>\\n' }}
				{%- endfor -%}
				{%- if add_generation_prompt -%}{{ '<|im_start|>assistant\\n' }}{%- endif -%}
				""");
		try (SimulatedModelServer server = start(SimulatorConfig.builder("test-model"), TestTokenizers.qwen3(),
				template)) {
			SimHttpClient http = new SimHttpClient(server);

			JsonNode tokenized = ok(http.post("/tokenize",
					body(Map.of("messages", List.of(Map.of("role", "user", "content", "Hi"))))));
			var refused = http.post("/v1/chat/completions", body(Map.of("messages", CONVERSATION)));

			ModelTokenizer tokenizer = Model.QWEN3.tokenizer();
			assertThat(ids(tokenized.get("tokens")))
				.containsExactly(tokenizer.encode("<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n", false));
			assertThat(refused.statusCode()).isEqualTo(400);
			assertThat(SimHttpClient.json(refused.body()).at("/error/message").stringValue())
				.contains("System messages are not supported.");
		}
	}

	@Test
	void publishedBlocksCarryTheRealTokenIdsOfThePromptsFullBlocks() {
		String content = "A question long enough to fill a few blocks of sixteen tokens each. ".repeat(8);
		List<Map<String, Object>> messages = List.of(Map.of("role", "user", "content", content));
		try (ZContext client = new ZContext();
				SimulatedModelServer server = start(SimulatorConfig.builder("test-model").kvEventsPort(0),
						TestTokenizers.qwen3(), null)) {
			ZMQ.Socket sub = client.createSocket(SocketType.SUB);
			sub.setHandshakeIvl(KvEventPublisher.HANDSHAKE_MILLIS);
			sub.connect("tcp://127.0.0.1:" + server.kvEventsPort());
			sub.subscribe(new byte[0]);
			sub.setReceiveTimeOut(200);
			SimHttpClient http = new SimHttpClient(server);

			// a subscription takes effect asynchronously: repeat the (cached, then silent) request until events arrive
			List<KvCacheEvent> events = new ArrayList<>();
			for (int attempt = 0; attempt < 150 && events.isEmpty(); attempt++) {
				assertThat(server.resetPrefixCache()).isTrue();
				ok(http.post("/v1/chat/completions", body(Map.of("messages", messages))));
				events.addAll(receiveEvents(sub));
				events.removeIf(AllBlocksCleared.class::isInstance);
			}

			int[] tokens = Model.QWEN3.tokenizer().encodeChat(messages, null, Map.of());
			int fullBlocks = tokens.length / 16;
			assertThat(fullBlocks).isGreaterThan(2);
			assertThat(events).singleElement().isInstanceOfSatisfying(BlockStored.class, (stored) -> {
				assertThat(stored.tokenIds()).containsExactly(Arrays.copyOf(tokens, fullBlocks * 16));
				assertThat(stored.tokenIds()).startsWith(151644);
				assertThat(stored.blockHashes()).containsExactly(PrefixBlockHasher.hashFullBlocks(tokens, 16, null));
			});
		}
	}

	private static List<KvCacheEvent> receiveEvents(ZMQ.Socket sub) {
		List<KvCacheEvent> events = new ArrayList<>();
		while (sub.recv() != null) {
			KvEventFrames.sequence(sub.recv());
			events.addAll(KvEventCodec.decode(sub.recv()).events());
		}
		return events;
	}

	private static String body(Map<String, Object> fields) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("model", "test-model");
		body.put("max_tokens", 1);
		body.putAll(fields);
		return Json.MAPPER.writeValueAsString(body);
	}

	private static JsonNode ok(java.net.http.HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return SimHttpClient.json(response.body());
	}

	private static int[] ids(JsonNode array) {
		int[] ids = new int[array.size()];
		for (int i = 0; i < ids.length; i++) {
			ids[i] = array.get(i).intValue();
		}
		return ids;
	}
}
