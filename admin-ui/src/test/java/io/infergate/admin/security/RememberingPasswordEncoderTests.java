package io.infergate.admin.security;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import org.springframework.security.crypto.password.PasswordEncoder;

import static org.assertj.core.api.Assertions.assertThat;

class RememberingPasswordEncoderTests {

	private final AtomicInteger checks = new AtomicInteger();

	private final RememberingPasswordEncoder encoder = new RememberingPasswordEncoder(new PasswordEncoder() {
		@Override
		public String encode(CharSequence rawPassword) {
			return "hash:" + rawPassword;
		}

		@Override
		public boolean matches(CharSequence rawPassword, String encodedPassword) {
			checks.incrementAndGet();
			return encodedPassword.equals("hash:" + rawPassword);
		}
	});

	@Test
	void checksAMatchingPasswordOnceThenRemembersIt() {
		assertThat(encoder.matches("secret", "hash:secret")).isTrue();
		assertThat(encoder.matches("secret", "hash:secret")).isTrue();
		assertThat(encoder.matches("secret", "hash:secret")).isTrue();

		assertThat(checks).hasValue(1);
	}

	@Test
	void alwaysChecksAPasswordThatDoesNotMatch() {
		encoder.matches("secret", "hash:secret");

		assertThat(encoder.matches("guess", "hash:secret")).isFalse();
		assertThat(encoder.matches("guess", "hash:secret")).isFalse();
		assertThat(encoder.matches("secret", "hash:other")).isFalse();

		assertThat(checks).hasValue(4);
	}
}
