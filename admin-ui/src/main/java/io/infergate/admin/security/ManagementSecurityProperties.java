package io.infergate.admin.security;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
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
 *
 * @param admin the one user of the management port
 * @param prometheus who may read {@code /actuator/prometheus}
 */
@Validated
@ConfigurationProperties("infergate.management")
public record ManagementSecurityProperties(@DefaultValue @Valid Admin admin,
		@DefaultValue @Valid Prometheus prometheus) {

	/**
	 * The one user of the management port.
	 *
	 * @param username The admin's user name.
	 * @param passwordHash The admin's password as a bcrypt hash in Spring Security's form, {@code {bcrypt}$2a$10$...}
	 * ($2a$, $2b$ and $2y$ accepted). Unset: a random password is generated and logged once at startup.
	 * @param allowRuntimeChanges Whether the dashboard's what-if view may apply weights to a running profile (each
	 * change logged and revertible); off by default.
	 */
	public record Admin(@DefaultValue("admin") @NotBlank String username, String passwordHash,
			@DefaultValue("false") boolean allowRuntimeChanges) {

		/** The user name, with the hash masked (a plain password may have been pasted there by mistake). */
		@Override
		public String toString() {
			return "Admin[username=" + username + ", passwordHash=" + ((passwordHash != null) ? "******" : null)
					+ ", allowRuntimeChanges=" + allowRuntimeChanges + "]";
		}
	}

	/**
	 * Who may read {@code /actuator/prometheus}.
	 *
	 * @param access {@code admin}: the admin's credentials; {@code open}: anyone; {@code bearer}: a bearer token, or
	 * the admin.
	 * @param bearerTokenSha256 Hex SHA-256 of the bearer token Prometheus sends, with {@code access: bearer}.
	 */
	public record Prometheus(@DefaultValue("admin") @NotNull PrometheusAccess access, String bearerTokenSha256) {

		/** The access, with the token's hash masked (a plain token may have been pasted there by mistake). */
		@Override
		public String toString() {
			return "Prometheus[access=" + access + ", bearerTokenSha256="
					+ ((bearerTokenSha256 != null) ? "******" : null) + "]";
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
