package io.infergate.gateway.capture;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import io.infergate.gateway.observe.JsonText;
import io.infergate.routing.prefix.PrefixHasher;
import io.infergate.routing.prefix.PrefixHashes;

/**
 * Writes a {@link CapturedRequest} as one JSON line of schema version {@value #VERSION} ({@code docs/capture.md}).
 * The tenant, the key id and every block hash are written keyed with the capture's secret:
 * HMAC-SHA256(secret, value), its first 8 bytes as 16 hex digits; a tenant is keyed as {@code tenant:<name>} and a
 * key id as {@code key:<id>}, so a tenant named as a key id does not show as the same value. A block's value is its chained prefix hash
 * ({@link PrefixHasher}, big-endian), so two requests of one capture share their leading entries exactly as far as
 * they share a prefix, while captures with different secrets share none. Not thread-safe: one per writer thread.
 */
final class CaptureLine {

	static final int VERSION = 1;

	private static final HexFormat HEX = HexFormat.of();

	private final Mac mac;

	private final PrefixHasher hasher;

	private final ByteBuffer hashBytes = ByteBuffer.allocate(Long.BYTES);

	CaptureLine(byte[] secret, PrefixHasher hasher) {
		try {
			this.mac = Mac.getInstance("HmacSHA256");
			this.mac.init(new SecretKeySpec(secret, "HmacSHA256"));
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("HMAC-SHA256 is not available", ex);
		}
		this.hasher = hasher;
	}

	String line(CapturedRequest request) {
		StringBuilder json = new StringBuilder(256);
		json.append("{\"v\":").append(VERSION);
		json.append(",\"arrivalMs\":").append(request.arrivalEpochMillis());
		string(json, "path", request.path());
		string(json, "model", request.model());
		string(json, "pool", request.pool());
		string(json, "adapter", request.adapter());
		string(json, "tenant", (request.tenant() != null) ? keyed("tenant:" + request.tenant()) : null);
		string(json, "key", (request.keyId() != null) ? keyed("key:" + request.keyId()) : null);
		json.append(",\"priority\":").append(request.priority());
		json.append(",\"stream\":").append(request.stream());
		json.append(",\"promptTokens\":").append((request.promptTokens() >= 0) ? request.promptTokens() : null);
		json.append(",\"promptTokensExact\":").append(request.promptTokensExact());
		json.append(",\"blockSizeChars\":").append(hasher.blockSizeChars());
		json.append(",\"blocks\":[");
		PrefixHashes hashes = hasher.hash(request.targetModel(), request.adapter(), request.promptText());
		for (int block = 0; block < hashes.blockCount(); block++) {
			json.append((block == 0) ? "\"" : ",\"").append(keyed(hashes.hash(block))).append('"');
		}
		json.append(']');
		json.append(",\"maxTokens\":").append(request.maxTokens());
		json.append(",\"outputTokens\":").append((request.outputTokens() >= 0) ? request.outputTokens() : null);
		json.append(",\"status\":").append(request.status());
		json.append(",\"completed\":").append(request.completed());
		millis(json, "ttftMs", request.ttftNanos());
		millis(json, "durationMs", request.durationNanos());
		string(json, "endpoint", request.endpoint());
		return json.append('}').toString();
	}

	String keyed(String value) {
		return keyed(value.getBytes(StandardCharsets.UTF_8));
	}

	String keyed(long hash) {
		hashBytes.clear();
		hashBytes.putLong(hash);
		return keyed(hashBytes.array());
	}

	private String keyed(byte[] value) {
		return HEX.formatHex(mac.doFinal(value), 0, Long.BYTES);
	}

	private static void string(StringBuilder json, String name, String value) {
		JsonText.string(JsonText.name(json.append(','), name), value);
	}

	private static void millis(StringBuilder json, String name, long nanos) {
		JsonText.millis(JsonText.name(json.append(','), name), nanos);
	}
}
