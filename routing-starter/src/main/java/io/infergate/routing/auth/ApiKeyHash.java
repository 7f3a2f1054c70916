package io.infergate.routing.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** The SHA-256 of an API key's secret, the only form in which keys are configured. */
public final class ApiKeyHash {

	private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(() -> {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every Java platform has SHA-256", ex);
		}
	});

	private ApiKeyHash() {
	}

	/** The SHA-256 of the secret's UTF-8 bytes. */
	public static byte[] sha256(String secret) {
		MessageDigest digest = SHA_256.get();
		digest.reset();
		return digest.digest(secret.getBytes(StandardCharsets.UTF_8));
	}

	/** The SHA-256 of the secret, as 64 lower-case hex digits. */
	public static String sha256Hex(String secret) {
		return HexFormat.of().formatHex(sha256(secret));
	}

	/** Whether {@code value} is a SHA-256 in hex: exactly 64 hex digits, either case. */
	public static boolean isSha256Hex(String value) {
		if (value == null || value.length() != 64) {
			return false;
		}
		for (int i = 0; i < value.length(); i++) {
			if (Character.digit(value.charAt(i), 16) < 0) {
				return false;
			}
		}
		return true;
	}
}
