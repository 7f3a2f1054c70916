package io.infergate.admin.security;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Who may use the management port, {@code infergate.management.*}:
 * <pre>
 * infergate:
 *   management:
 *     admin:
 *       username: admin
 *       password-hash: "{bcrypt}$2a$10$..."   # none: a password is generated and logged at startup
 *     prometheus:
 *       access: admin                        # admin | open | bearer
 *       bearer-token-sha256: 9f86d0...       # with access: bearer
 * </pre>
 * The hash and the token are checked at startup by {@link AdminCredentials}, which names every problem without
 * printing the values (a plain password pasted there by mistake must not reach the log).
 */
@Validated
@ConfigurationProperties("infergate.management")
public class ManagementSecurityProperties {

	@Valid
	private final Admin admin = new Admin();

	@Valid
	private final Prometheus prometheus = new Prometheus();

	public Admin getAdmin() {
		return admin;
	}

	public Prometheus getPrometheus() {
		return prometheus;
	}

	/** The one user of the management port. */
	public static class Admin {

		/** The admin's user name. */
		@NotBlank
		private String username = "admin";

		/**
		 * The admin's password as a bcrypt hash in Spring Security's form, {@code {bcrypt}$2a$10$...} ($2a$, $2b$ and
		 * $2y$ accepted). Unset: a random password is generated and logged once at startup.
		 */
		private String passwordHash;

		public String getUsername() {
			return username;
		}

		public void setUsername(String username) {
			this.username = username;
		}

		public String getPasswordHash() {
			return passwordHash;
		}

		public void setPasswordHash(String passwordHash) {
			this.passwordHash = passwordHash;
		}
	}

	/** Who may read {@code /actuator/prometheus}. */
	public static class Prometheus {

		/** {@code admin}: the admin's credentials; {@code open}: anyone; {@code bearer}: a bearer token, or the admin. */
		@NotNull
		private PrometheusAccess access = PrometheusAccess.ADMIN;

		/** Hex SHA-256 of the bearer token Prometheus sends, with {@code access: bearer}. */
		private String bearerTokenSha256;

		public PrometheusAccess getAccess() {
			return access;
		}

		public void setAccess(PrometheusAccess access) {
			this.access = access;
		}

		public String getBearerTokenSha256() {
			return bearerTokenSha256;
		}

		public void setBearerTokenSha256(String bearerTokenSha256) {
			this.bearerTokenSha256 = bearerTokenSha256;
		}
	}

	/** Who may read {@code /actuator/prometheus}. */
	public enum PrometheusAccess {

		/** The admin's HTTP Basic credentials, as every other management endpoint. */
		ADMIN,

		/** Anyone who reaches the management port. */
		OPEN,

		/** A bearer token whose SHA-256 is configured, or the admin's credentials. */
		BEARER
	}
}
