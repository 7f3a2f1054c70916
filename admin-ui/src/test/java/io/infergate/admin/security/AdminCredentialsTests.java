package io.infergate.admin.security;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.infergate.admin.security.ManagementSecurityProperties.PrometheusAccess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class AdminCredentialsTests {

	/** {@code dashboard-test-password}, hashed by {@code hash-password}. */
	private static final String HASH = "{bcrypt}$2a$10$V8b7UahWrY41mT.9HBsGMeGOtkIA0JF/MueNMoyxKbIKZlBGNhB5y";

	private final List<String> announced = new ArrayList<>();

	@Test
	void withoutAHashGeneratesAPasswordAnnouncesItOnceAndAcceptsIt() {
		AdminCredentials credentials = AdminCredentials.of(properties(null, PrometheusAccess.ADMIN, null),
				announced::add);

		assertThat(announced).hasSize(1);
		assertThat(announced.get(0)).hasSizeGreaterThanOrEqualTo(20);
		assertThat(credentials.generated()).isTrue();
		assertThat(credentials.passwordEncoder().matches(announced.get(0), credentials.passwordHash())).isTrue();
		assertThat(credentials.passwordEncoder().matches("guess", credentials.passwordHash())).isFalse();
	}

	@Test
	void acceptsTheConfiguredHashInEachBcryptVersion() {
		for (String version : List.of("$2a$", "$2b$", "$2y$")) {
			ManagementSecurityProperties properties = properties(HASH.replace("$2a$", version), PrometheusAccess.ADMIN,
					null);

			AdminCredentials credentials = AdminCredentials.of(properties, announced::add);

			assertThat(credentials.passwordEncoder().matches("dashboard-test-password", credentials.passwordHash()))
				.as(version)
				.isTrue();
		}
		assertThat(announced).isEmpty();
	}

	@Test
	void namesEveryProblemWithoutPrintingTheValues() {
		ManagementSecurityProperties properties = properties("my-plain-password", PrometheusAccess.ADMIN,
				"my-plain-token");

		assertThatExceptionOfType(ManagementSecurityException.class)
			.isThrownBy(() -> AdminCredentials.of(properties, announced::add))
			.satisfies((ex) -> assertThat(ex.getMessage())
				.contains("infergate.management.admin.password-hash: not a bcrypt hash")
				.contains("infergate.management.prometheus.bearer-token-sha256: not 64 hex digits")
				.contains("infergate.management.prometheus.bearer-token-sha256: set, but "
						+ "infergate.management.prometheus.access is 'admin'")
				.doesNotContain("my-plain-password")
				.doesNotContain("my-plain-token"));
		assertThat(properties.toString()).doesNotContain("my-plain-password").doesNotContain("my-plain-token");
	}

	@Test
	void saysToPrefixABareBcryptHash() {
		ManagementSecurityProperties properties = properties(HASH.substring("{bcrypt}".length()),
				PrometheusAccess.ADMIN, null);

		assertThatExceptionOfType(ManagementSecurityException.class)
			.isThrownBy(() -> AdminCredentials.of(properties, announced::add))
			.withMessageContaining("prefix the hash with {bcrypt}");
	}

	@Test
	void bearerAccessNeedsTheTokensHash() {
		ManagementSecurityProperties properties = properties(null, PrometheusAccess.BEARER, null);

		assertThatExceptionOfType(ManagementSecurityException.class)
			.isThrownBy(() -> AdminCredentials.of(properties, announced::add))
			.withMessageContaining("bearer-token-sha256: missing");
	}

	@Test
	void recognisesPrometheussTokenByItsSha256() {
		// printf %s scrape-token | sha256sum
		ManagementSecurityProperties properties = properties(null, PrometheusAccess.BEARER,
				"41369AAE32E5CC50E94B626F9F49CEF39B6A57243708BCAA06662F19BDAE5483");

		AdminCredentials credentials = AdminCredentials.of(properties, announced::add);

		assertThat(credentials.isPrometheusToken("scrape-token")).isTrue();
		assertThat(credentials.isPrometheusToken("scrape-token ")).isFalse();
		assertThat(credentials.isPrometheusToken(null)).isFalse();
	}

	private static ManagementSecurityProperties properties(String passwordHash, PrometheusAccess access,
			String bearerTokenSha256) {
		return new ManagementSecurityProperties(new ManagementSecurityProperties.Admin("admin", passwordHash, false),
				new ManagementSecurityProperties.Prometheus(access, bearerTokenSha256));
	}
}
