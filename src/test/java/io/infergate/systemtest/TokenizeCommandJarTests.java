package io.infergate.systemtest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code java -jar gateway-app.jar tokenize} as an operator runs it: the packaged jar loads the tokenizer's native
 * library from inside itself, and standard output holds the JSON array of ids and nothing else (no log lines),
 * so that it can be piped.
 */
class TokenizeCommandJarTests {

	private static final Path QWEN3 = Path.of(System.getProperty("infergate.test.tokenizers"), "tokenizer-qwen3",
			"models");

	@Test
	void standardOutputIsTheIdsAlone() throws Exception {
		Result result = run("{\"messages\": [{\"role\": \"user\", \"content\": \"Hello world\"}]}", "--tokenizer",
				QWEN3.toString());

		assertThat(result.exit()).as(result.err()).isZero();
		assertThat(result.out()).isEqualTo("[151644,872,198,9707,1879,151645,198,151644,77091,198]\n");
	}

	@Test
	void badInputIsOneLineOnStandardErrorAndStatus2() throws Exception {
		Result result = run("{\"prompt\": [\"a\", 1]}", "--tokenizer", QWEN3.toString());

		assertThat(result.exit()).isEqualTo(2);
		assertThat(result.out()).isEmpty();
		assertThat(result.err().lines()).singleElement().asString().startsWith("tokenize: ");
	}

	private static Result run(String stdin, String... arguments) throws IOException, InterruptedException {
		List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin",
				"java").toString(), "-jar", System.getProperty("gateway.jar"), "tokenize"));
		command.addAll(List.of(arguments));
		Process process = new ProcessBuilder(command).start();
		process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
		process.getOutputStream().close();
		String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		return new Result(process.exitValue(), out, err);
	}

	private record Result(int exit, String out, String err) {
	}
}
