package io.infergate.admin.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Pattern;

import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.DelegatingPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;

import io.infergate.admin.security.ManagementSecurityProperties.PrometheusAccess;

/**
 * The management port's credentials, checked once at startup: the admin's user name and bcrypt hash (or a password
 * generated now and logged once), who may read Prometheus, and the SHA-256 of Prometheus's bearer token.
 * <p>
 * Every problem is reported at once by a {@link ManagementSecurityException} that names the property and never its
 * value.
 */
public final class AdminCredentials {

	/** Spring Security's form of a bcrypt hash: {@code {bcrypt}$2a$NN$} then 53 characters of salt and hash. */
	static final Pattern BCRYPT = Pattern.compile("\\{bcrypt}\\$2[aby]\\$(0[4-9]|[12][0-9]|3[01])\\$[./A-Za-z0-9]{53}");

	private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-fA-F]{64}");

	private static final String ADMIN = "infergate.management.admin";

	private static final String PROMETHEUS = "infergate.management.prometheus";

	private final String username;

	private final String passwordHash;

	private final boolean generated;

	private final PrometheusAccess prometheusAccess;

	private final byte[] bearerTokenSha256;

	private final PasswordEncoder passwordEncoder;

	private AdminCredentials(String username, String passwordHash, boolean generated,
			PrometheusAccess prometheusAccess, byte[] bearerTokenSha256) {
		this.username = username;
		this.passwordHash = passwordHash;
		this.generated = generated;
		this.prometheusAccess = prometheusAccess;
		this.bearerTokenSha256 = bearerTokenSha256;
		this.passwordEncoder = new RememberingPasswordEncoder(
				new DelegatingPasswordEncoder("bcrypt", Map.of("bcrypt", new BCryptPasswordEncoder())));
	}

	/**
	 * Checks {@code properties}; without a password hash (unset or blank), generates a password, hands it to
	 * {@code announce} (once) and keeps its hash.
	 *
	 * @throws ManagementSecurityException listing every problem
	 */
	public static AdminCredentials of(ManagementSecurityProperties properties, Consumer<String> announce) {
		List<String> problems = new ArrayList<>();
		String hash = blankAsNull(properties.admin().passwordHash());
		if (hash != null && !BCRYPT.matcher(hash).matches()) {
			problems.add(ADMIN + ".password-hash: not a bcrypt hash in Spring Security's form {bcrypt}$2a$10$ "
					+ "followed by 53 characters ($2b$ and $2y$ are accepted too)"
					+ (hash.startsWith("$2") ? "; prefix the hash with {bcrypt}" : "")
					+ "; the value (" + hash.length() + " characters) is not shown");
		}
		ManagementSecurityProperties.Prometheus prometheus = properties.prometheus();
		String token = blankAsNull(prometheus.bearerTokenSha256());
		if (prometheus.access() == PrometheusAccess.BEARER && token == null) {
			problems.add(PROMETHEUS + ".bearer-token-sha256: missing; access 'bearer' needs the hex SHA-256 of the "
					+ "token Prometheus sends");
		}
		if (token != null && !SHA256_HEX.matcher(token).matches()) {
			problems.add(PROMETHEUS + ".bearer-token-sha256: not 64 hex digits (a SHA-256); the value (" + token.length()
					+ " characters) is not shown");
		}
		if (token != null && prometheus.access() != PrometheusAccess.BEARER) {
			problems.add(PROMETHEUS + ".bearer-token-sha256: set, but " + PROMETHEUS + ".access is '"
					+ prometheus.access().name().toLowerCase() + "'; set access to 'bearer' or remove the token");
		}
		if (!problems.isEmpty()) {
			throw new ManagementSecurityException(problems);
		}
		String username = properties.admin().username();
		byte[] tokenHash = (token != null) ? HexFormat.of().parseHex(token.toLowerCase()) : null;
		if (hash != null) {
			return new AdminCredentials(username, hash, false, prometheus.access(), tokenHash);
		}
		String password = generatePassword();
		announce.accept(password);
		return new AdminCredentials(username, "{bcrypt}" + new BCryptPasswordEncoder().encode(password), true,
				prometheus.access(), tokenHash);
	}

	public String username() {
		return username;
	}

	/** The admin's password hash, {@code {bcrypt}...}. */
	public String passwordHash() {
		return passwordHash;
	}

	/** Whether the password was generated at startup because none was configured. */
	public boolean generated() {
		return generated;
	}

	/** Checks passwords against {@link #passwordHash()}; remembers the last one that matched (see its class). */
	public PasswordEncoder passwordEncoder() {
		return passwordEncoder;
	}

	public PrometheusAccess prometheusAccess() {
		return prometheusAccess;
	}

	/** Whether {@code token} is Prometheus's bearer token: its SHA-256 equals the configured one. */
	public boolean isPrometheusToken(String token) {
		return bearerTokenSha256 != null && token != null
				&& MessageDigest.isEqual(sha256(token.getBytes(StandardCharsets.UTF_8)), bearerTokenSha256);
	}

	private static String blankAsNull(String value) {
		return (value == null || value.isBlank()) ? null : value;
	}

	private static String generatePassword() {
		byte[] random = new byte[18];
		new SecureRandom().nextBytes(random);
		return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
	}

	static byte[] sha256(byte[] bytes) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(bytes);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every JVM has SHA-256", ex);
		}
	}
}
