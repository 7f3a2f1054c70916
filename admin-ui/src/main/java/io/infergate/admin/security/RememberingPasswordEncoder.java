package io.infergate.admin.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * A password encoder that remembers the last password that matched, so HTTP Basic, which sends the password with
 * every request, pays for bcrypt once instead of on every request (a dashboard loads several files and then asks
 * for decisions and what-if replays; bcrypt at cost 10 takes tens of milliseconds of CPU each time).
 * <p>
 * What it remembers is an HMAC-SHA256 of the hash and the password under a key drawn at startup, never the
 * password. A password that does not match is always checked by the delegate, so guessing costs what bcrypt costs.
 */
final class RememberingPasswordEncoder implements PasswordEncoder {

	private final PasswordEncoder delegate;

	private final SecretKeySpec key;

	private volatile byte[] lastMatch;

	RememberingPasswordEncoder(PasswordEncoder delegate) {
		this.delegate = delegate;
		byte[] secret = new byte[32];
		new SecureRandom().nextBytes(secret);
		this.key = new SecretKeySpec(secret, "HmacSHA256");
	}

	@Override
	public String encode(CharSequence rawPassword) {
		return delegate.encode(rawPassword);
	}

	@Override
	public boolean matches(CharSequence rawPassword, String encodedPassword) {
		if (rawPassword == null || encodedPassword == null) {
			return false;
		}
		byte[] mac = mac(encodedPassword + '\n' + rawPassword);
		byte[] remembered = lastMatch;
		if (remembered != null && MessageDigest.isEqual(mac, remembered)) {
			return true;
		}
		boolean matches = delegate.matches(rawPassword, encodedPassword);
		if (matches) {
			lastMatch = mac;
		}
		return matches;
	}

	@Override
	public boolean upgradeEncoding(String encodedPassword) {
		return false;
	}

	private byte[] mac(String text) {
		try {
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(key);
			return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("every JVM has HmacSHA256", ex);
		}
	}
}
