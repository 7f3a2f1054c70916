package io.infergate.gateway.command;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.infergate.gateway.support.TestTokenizers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code tokenize} on the real Qwen3 and Llama 3.1 tokenizers. The expected ids were checked against a second,
 * independent implementation on the same files: {@code @lenml/tokenizers} 3.7.2, a JavaScript port of transformers.js
 * ({@code encode("Hello world")}, and {@code apply_chat_template} with {@code add_generation_prompt} for Llama 3.1;
 * for Qwen3, whose template that port cannot parse, {@code encode} of the rendered text without special tokens).
 * Known ids: Qwen3 {@code <|im_start|>} 151644, {@code <|im_end|>} 151645, "user" 872, "assistant" 77091, "\n" 198;
 * Llama 3.1 {@code <|begin_of_text|>} 128000, {@code <|start_header_id|>} 128006, {@code <|end_header_id|>} 128007,
 * {@code <|eot_id|>} 128009, "\n\n" 271.
 */
class TokenizeCommandTests {

	private static final String CHAT = "{\"messages\": [{\"role\": \"user\", \"content\": \"Hello world\"}]}";

	private final ByteArrayOutputStream out = new ByteArrayOutputStream();

	private final ByteArrayOutputStream err = new ByteArrayOutputStream();

	private int run(String stdin, String... args) {
		return GatewayCommands.builtIn()
			.run(args, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
					new PrintStream(out, true, StandardCharsets.UTF_8),
					new PrintStream(err, true, StandardCharsets.UTF_8));
	}

	private String printed() {
		return out.toString(StandardCharsets.UTF_8).trim();
	}

	private String error() {
		return err.toString(StandardCharsets.UTF_8);
	}

	@Test
	void aCompletionsPromptIsTokenizedWithTheTokenizersSpecialTokens() {
		assertThat(run("{\"prompt\": \"Hello world\"}", "tokenize", "--tokenizer", TestTokenizers.qwen3().toString()))
			.isZero();
		assertThat(printed()).isEqualTo("[9707,1879]");

		out.reset();
		assertThat(run("{\"prompt\": \"Hello world\"}", "tokenize", "--tokenizer",
				TestTokenizers.llama31().resolve("tokenizer.json").toString()))
			.isZero();
		assertThat(printed()).as("Llama adds <|begin_of_text|>").isEqualTo("[128000,9906,1917]");
	}

	@Test
	void chatMessagesAreRenderedThroughTheChatTemplateWithTheGenerationPrompt() {
		assertThat(run(CHAT, "tokenize", "--tokenizer", TestTokenizers.qwen3().toString())).isZero();
		// <|im_start|>user\nHello world<|im_end|>\n<|im_start|>assistant\n
		assertThat(printed()).isEqualTo("[151644,872,198,9707,1879,151645,198,151644,77091,198]");

		out.reset();
		assertThat(run(CHAT, "tokenize", "--tokenizer", TestTokenizers.llama31().toString())).isZero();
		// <|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHello world<|eot_id|>
		// <|start_header_id|>assistant<|end_header_id|>\n\n
		assertThat(printed()).isEqualTo("[128000,128006,882,128007,271,9906,1917,128009,128006,78191,128007,271]");
	}

	@Test
	void aChatTemplateFileReplacesTheTokenizers(@TempDir Path directory) throws IOException {
		Path template = directory.resolve("plain.jinja");
		Files.writeString(template, "{% for m in messages %}{{ m.role }}: {{ m.content }}\n{% endfor %}");

		assertThat(run(CHAT, "tokenize", "--tokenizer", TestTokenizers.qwen3().toString(), "--chat-template",
				template.toString()))
			.isZero();
		// "user: Hello world\n"
		assertThat(printed()).isEqualTo("[872,25,21927,1879,198]");
	}

	@Test
	void badInputIsOneLineOnStandardErrorAndExitStatus2() {
		String qwen3 = TestTokenizers.qwen3().toString();
		assertThat(run("not json", "tokenize", "--tokenizer", qwen3)).isEqualTo(2);
		assertThat(run("{\"input\": \"x\"}", "tokenize", "--tokenizer", qwen3)).isEqualTo(2);
		assertThat(run("{\"messages\": [{\"content\": \"no role\"}]}", "tokenize", "--tokenizer", qwen3)).isEqualTo(2);
		assertThat(run("{\"prompt\": \"x\"}", "tokenize", "--tokenizer", "/nonexistent")).isEqualTo(2);
		assertThat(run("{\"prompt\": \"x\"}", "tokenize")).isEqualTo(2);

		assertThat(printed()).isEmpty();
		assertThat(error().lines()).hasSize(5).allSatisfy((line) -> assertThat(line).startsWith("tokenize: "));
		assertThat(error()).contains("no tokenizer file at /nonexistent");
	}
}
