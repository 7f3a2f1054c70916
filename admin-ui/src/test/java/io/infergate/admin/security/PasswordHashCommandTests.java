package io.infergate.admin.security;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;

import static org.assertj.core.api.Assertions.assertThat;

class PasswordHashCommandTests {

	private final ByteArrayOutputStream out = new ByteArrayOutputStream();

	private final ByteArrayOutputStream err = new ByteArrayOutputStream();

	@Test
	void printsABcryptHashOfTheLineReadInTheFormThePropertyTakes() {
		int status = run("correct horse battery staple\n");

		String printed = out.toString(StandardCharsets.UTF_8).trim();
		assertThat(status).isZero();
		assertThat(printed).matches(AdminCredentials.BCRYPT.pattern());
		assertThat(new BCryptPasswordEncoder().matches("correct horse battery staple",
				printed.substring("{bcrypt}".length()))).isTrue();
	}

	@Test
	void refusesAnEmptyPassword() {
		assertThat(run("")).isEqualTo(1);
		assertThat(out.size()).isZero();
		assertThat(err.toString(StandardCharsets.UTF_8)).contains("empty");
	}

	private int run(String input) {
		return PasswordHashCommand.run(null, new StringReader(input), new PrintStream(out, true, StandardCharsets.UTF_8),
				new PrintStream(err, true, StandardCharsets.UTF_8));
	}
}
