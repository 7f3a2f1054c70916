package io.infergate.gateway.command;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HashApiKeyCommandTests {

	private static final String TEST_SHA256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

	private final ByteArrayOutputStream out = new ByteArrayOutputStream();

	private final ByteArrayOutputStream err = new ByteArrayOutputStream();

	private int run(String stdin, String... args) {
		return GatewayCommands.builtIn()
			.run(args, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
					new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
	}

	@Test
	void printsTheSha256OfTheSecretReadFromStandardInput() {
		int exit = run("test\n", "hash-api-key");

		assertThat(exit).isZero();
		assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(TEST_SHA256 + System.lineSeparator());
	}

	@Test
	void takesTheSecretAsTheArgument() {
		assertThat(run("", "hash-api-key", "test")).isZero();
		assertThat(out.toString(StandardCharsets.UTF_8)).startsWith(TEST_SHA256);
	}

	@Test
	void refusesAnEmptySecret() {
		assertThat(run("", "hash-api-key")).isEqualTo(2);
		assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
		assertThat(err.toString(StandardCharsets.UTF_8)).contains("no secret given");
	}

	@Test
	void onlyNamedCommandsReplaceStartingTheGateway() {
		assertThat(GatewayCommands.builtIn().handles(new String[] { "hash-api-key" })).isTrue();
		assertThat(GatewayCommands.builtIn().handles(new String[] { "--server.port=0" })).isFalse();
		assertThat(GatewayCommands.builtIn().handles(new String[0])).isFalse();
	}
}
