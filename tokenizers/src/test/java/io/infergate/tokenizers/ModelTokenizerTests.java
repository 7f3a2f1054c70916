package io.infergate.tokenizers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The real Qwen3 and Llama 3.1 tokenizers, loaded from the files vLLM would load. Token ids: Qwen3
 * {@code <|im_start|>} 151644, {@code <|im_end|>} 151645, "\n" 198, "Hello" 9707, " world" 1879; Llama 3.1
 * {@code <|begin_of_text|>} 128000, "Hello" 9906, " world" 1917 (the published vocabularies; the same ids come out of
 * {@code @lenml/tokenizers} 3.7.2, an independent JavaScript implementation, on the same files).
 */
class ModelTokenizerTests {

	private static ModelTokenizer qwen3;

	private static ModelTokenizer llama31;

	@BeforeAll
	static void load() {
		qwen3 = ModelTokenizer.load(models("tokenizer-qwen3"), null);
		llama31 = ModelTokenizer.load(models("tokenizer-llama3_1").resolve(ModelTokenizer.TOKENIZER_FILE), null);
	}

	@AfterAll
	static void close() {
		qwen3.close();
		llama31.close();
	}

	static Path models(String name) {
		String root = System.getProperty("infergate.test.tokenizers");
		if (root == null) {
			throw new IllegalStateException("the system property infergate.test.tokenizers is not set: run the tests "
					+ "through Maven, which fetches the tokenizers and sets it");
		}
		return Path.of(root, name, "models");
	}

	@Test
	void aPromptGetsTheTokenizersSpecialTokens() {
		assertThat(qwen3.encodePrompt("Hello world")).containsExactly(9707, 1879);
		assertThat(llama31.encodePrompt("Hello world")).containsExactly(128000, 9906, 1917);
		assertThat(llama31.encode("Hello world", false)).containsExactly(9906, 1917);
	}

	@Test
	void chatIsRenderedWithTheGenerationPromptAndTheTemplatesOwnSpecialTokens() {
		List<Map<String, Object>> messages = List.of(Map.of("role", "user", "content", "Hello world"));

		assertThat(qwen3.renderChat(messages, null, Map.of(), true))
			.isEqualTo("<|im_start|>user\nHello world<|im_end|>\n<|im_start|>assistant\n");
		assertThat(llama31.renderChat(messages, null, Map.of(), true)).startsWith("<|begin_of_text|>")
			.endsWith("<|start_header_id|>assistant<|end_header_id|>\n\n");
		// bos_token comes from tokenizer_config.json; the template writes it, so none is added on top
		assertThat(llama31.encodeChat(messages, null, Map.of())).startsWith(128000, 128006);
	}

	@Test
	void contentPartsAreJoinedOnePerLineAsVllmJoinsThem() {
		List<Map<String, Object>> parts = List.of(Map.of("role", "user", "content",
				List.of(Map.of("type", "text", "text", "Hello"), Map.of("type", "image_url", "image_url", Map.of()),
						Map.of("type", "text", "text", "world"))));

		assertThat(qwen3.renderChat(parts, null, Map.of(), false))
			.isEqualTo("<|im_start|>user\nHello\nworld<|im_end|>\n");
	}

	@Test
	void aNullContentIsEmptyAndToolCallArgumentsAreParsedToAnObject() {
		List<Map<String, Object>> messages = List.of(Map.of("role", "user", "content", "Weather?"),
				messageWithNullContent());

		String rendered = qwen3.renderChat(messages, null, Map.of(), false);

		assertThat(rendered).contains("<tool_call>\n{\"name\": \"weather\", \"arguments\": {\"city\": \"Oslo\"}}\n"
				+ "</tool_call>");
	}

	private static Map<String, Object> messageWithNullContent() {
		Map<String, Object> message = new java.util.LinkedHashMap<>();
		message.put("role", "assistant");
		message.put("content", null);
		message.put("tool_calls", List.of(Map.of("id", "c1", "type", "function", "function",
				Map.of("name", "weather", "arguments", "{\"city\":\"Oslo\"}"))));
		return message;
	}

	@Test
	void chatTemplateKwargsReachTheTemplate() {
		List<Map<String, Object>> messages = List.of(Map.of("role", "user", "content", "Hi"));

		assertThat(qwen3.renderChat(messages, null, Map.of("enable_thinking", false), true))
			.endsWith("<|im_start|>assistant\n<think>\n\n</think>\n\n");
	}

	@Test
	void loneSurrogatesAreTokenizedAsTheReplacementCharacter() {
		assertThat(qwen3.encode("a\ud800b", false)).containsExactly(qwen3.encode("a\ufffdb", false));
		assertThat(qwen3.encode("x\udc00\ud83d\ude00", false)).containsExactly(qwen3.encode("x\ufffd\ud83d\ude00",
				false));
	}

	@Test
	void decodeGivesTheTextBack() {
		assertThat(llama31.decode(llama31.encodePrompt("Hello world"))).isEqualTo("<|begin_of_text|>Hello world");
	}

	@Test
	void aMissingOrInvalidFileIsATokenizerExceptionNamingIt(@TempDir Path directory) throws IOException {
		assertThatExceptionOfType(TokenizerException.class)
			.isThrownBy(() -> ModelTokenizer.load(directory.resolve("nope"), null))
			.withMessage("no tokenizer file at " + directory.resolve("nope"));
		Path invalid = directory.resolve("tokenizer.json");
		Files.writeString(invalid, "{\"model\": 1}");
		assertThatExceptionOfType(TokenizerException.class).isThrownBy(() -> ModelTokenizer.load(directory, null))
			.withMessageStartingWith("cannot load " + invalid + ": ");
	}

	@Test
	void theChatTemplateComesFromAFileBesideTheTokenizerOrTheListForm(@TempDir Path directory) throws IOException {
		Files.copy(models("tokenizer-qwen3").resolve("tokenizer.json"), directory.resolve("tokenizer.json"));
		Files.writeString(directory.resolve("chat_template.jinja"), "{{ messages[0].content }}!");
		try (ModelTokenizer fromFile = ModelTokenizer.load(directory, null)) {
			assertThat(fromFile.renderChat(List.of(Map.of("role", "user", "content", "hi")), null, Map.of(), true))
				.isEqualTo("hi!");
		}
		Files.writeString(directory.resolve("tokenizer_config.json"), "{\"bos_token\": {\"content\": \"<s>\"}, "
				+ "\"chat_template\": [{\"name\": \"tool_use\", \"template\": \"x\"}, {\"name\": \"default\", "
				+ "\"template\": \"{{ bos_token }}{{ messages[0].content }}\"}]}");
		try (ModelTokenizer fromList = ModelTokenizer.load(directory, null)) {
			assertThat(fromList.renderChat(List.of(Map.of("role", "user", "content", "hi")), null, Map.of(), true))
				.isEqualTo("<s>hi");
		}
	}

	@Test
	void withoutAChatTemplateChatIsATokenizerException(@TempDir Path directory) throws IOException {
		Files.copy(models("tokenizer-qwen3").resolve("tokenizer.json"), directory.resolve("tokenizer.json"));
		try (ModelTokenizer bare = ModelTokenizer.load(directory, null)) {
			assertThat(bare.hasChatTemplate()).isFalse();
			assertThatExceptionOfType(TokenizerException.class)
				.isThrownBy(() -> bare.encodeChat(List.of(Map.of("role", "user", "content", "hi")), null, Map.of()))
				.withMessageContaining("has no chat template");
		}
	}

	@Test
	void anInvalidTemplateFailsAtLoadNamingItsFile(@TempDir Path directory) throws IOException {
		Path template = directory.resolve("broken.jinja");
		Files.writeString(template, "{% for m in messages %}never closed");

		assertThatExceptionOfType(TokenizerException.class)
			.isThrownBy(() -> ModelTokenizer.load(models("tokenizer-qwen3"), template))
			.withMessageStartingWith("invalid chat template in " + template + ": ");
	}
}
