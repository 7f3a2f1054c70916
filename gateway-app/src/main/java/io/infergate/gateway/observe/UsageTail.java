package io.infergate.gateway.observe;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.springframework.core.io.buffer.DataBuffer;

/**
 * The last {@value #CAPACITY} bytes of a relayed response body, from which {@link #usage()} reads the
 * {@code usage} object once the body has ended. OpenAI-compatible servers put {@code usage} at the end: last in a
 * completion's JSON, and in the final chunk of a stream (before {@code data: [DONE]}) when the client asked for
 * {@code stream_options.include_usage}; when every chunk carries usage, the last one wins.
 * <p>
 * Cost per response: one copy of at most {@value #CAPACITY} bytes of each body buffer into a ring allocated at the
 * first byte, and one backward scan of the ring at the end. The body is never parsed as JSON.
 */
final class UsageTail {

	static final int CAPACITY = 1024;

	private static final byte[] USAGE = "\"usage\"".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] PROMPT_TOKENS = "\"prompt_tokens\"".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] COMPLETION_TOKENS = "\"completion_tokens\"".getBytes(StandardCharsets.US_ASCII);

	private ByteBuffer ring;

	/** Bytes appended in all, so the ring's oldest byte is at {@code appended % CAPACITY} once full. */
	private long appended;

	/** Keeps the buffer's last bytes; the buffer's read position is left where it was. */
	void append(DataBuffer buffer) {
		int length = buffer.readableByteCount();
		if (length == 0) {
			return;
		}
		if (ring == null) {
			ring = ByteBuffer.allocate(CAPACITY);
		}
		// bytes older than the ring's capacity count as written, so positions stay in step
		int skip = Math.max(0, length - CAPACITY);
		appended += skip;
		int from = buffer.readPosition() + skip;
		int remaining = length - skip;
		while (remaining > 0) {
			int at = (int) (appended % CAPACITY);
			int chunk = Math.min(remaining, CAPACITY - at);
			buffer.toByteBuffer(from, ring, at, chunk);
			from += chunk;
			remaining -= chunk;
			appended += chunk;
		}
	}

	/** The usage in the body's last bytes, or {@code null} when they hold none. */
	TokenUsage usage() {
		if (ring == null) {
			return null;
		}
		int length = (int) Math.min(appended, CAPACITY);
		byte[] tail = new byte[length];
		int oldest = (appended > CAPACITY) ? (int) (appended % CAPACITY) : 0;
		for (int i = 0; i < length; i++) {
			tail[i] = ring.get((oldest + i) % CAPACITY);
		}
		return parse(tail, length);
	}

	/** The prompt and completion tokens of the last {@code "usage":{...}} in {@code text}, or {@code null}. */
	static TokenUsage parse(byte[] text, int length) {
		int key = lastIndexOf(text, length, USAGE);
		if (key < 0) {
			return null;
		}
		int object = skipToValue(text, length, key + USAGE.length);
		if (object < 0 || text[object] != '{') {
			return null; // "usage": null, or cut off
		}
		long prompt = numberAfter(text, length, object, PROMPT_TOKENS);
		long completion = numberAfter(text, length, object, COMPLETION_TOKENS);
		if (prompt < 0 || completion < 0) {
			return null;
		}
		return new TokenUsage(prompt, completion);
	}

	/** The index of the value after {@code "key"} and its colon, or -1. */
	private static int skipToValue(byte[] text, int length, int from) {
		int i = from;
		while (i < length && isSpace(text[i])) {
			i++;
		}
		if (i >= length || text[i] != ':') {
			return -1;
		}
		i++;
		while (i < length && isSpace(text[i])) {
			i++;
		}
		return (i < length) ? i : -1;
	}

	/** The non-negative integer value of the first {@code key} at or after {@code from}, or -1. */
	private static long numberAfter(byte[] text, int length, int from, byte[] key) {
		int at = indexOf(text, length, from, key);
		if (at < 0) {
			return -1;
		}
		int i = skipToValue(text, length, at + key.length);
		if (i < 0 || text[i] < '0' || text[i] > '9') {
			return -1;
		}
		long value = 0;
		while (i < length && text[i] >= '0' && text[i] <= '9' && value < Long.MAX_VALUE / 10) {
			value = value * 10 + (text[i] - '0');
			i++;
		}
		return value;
	}

	private static boolean isSpace(byte b) {
		return b == ' ' || b == '\n' || b == '\r' || b == '\t';
	}

	private static int indexOf(byte[] text, int length, int from, byte[] key) {
		for (int i = from; i <= length - key.length; i++) {
			if (matchesAt(text, i, key)) {
				return i;
			}
		}
		return -1;
	}

	private static int lastIndexOf(byte[] text, int length, byte[] key) {
		for (int i = length - key.length; i >= 0; i--) {
			if (matchesAt(text, i, key)) {
				return i;
			}
		}
		return -1;
	}

	private static boolean matchesAt(byte[] text, int at, byte[] key) {
		for (int j = 0; j < key.length; j++) {
			if (text[at + j] != key[j]) {
				return false;
			}
		}
		return true;
	}
}
