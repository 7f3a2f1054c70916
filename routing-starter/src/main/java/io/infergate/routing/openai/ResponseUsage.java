package io.infergate.routing.openai;

import java.nio.ByteBuffer;
import java.util.Arrays;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferUtils;

import io.infergate.routing.limits.TokenUsage;

/**
 * The tokens one response used, read from the bytes the gateway relays, without holding the response:
 * <ul>
 * <li>a JSON response: its {@code usage} object, found in the last {@value #TAIL_BYTES} bytes (OpenAI-compatible
 * servers write it after the choices): {@code prompt_tokens} and {@code completion_tokens}, or the Responses API's
 * {@code input_tokens} and {@code output_tokens}; an embedding's has no completion tokens;</li>
 * <li>an SSE stream: the {@code usage} of its usage chunk ({@code "choices":[]} and a {@code usage} object), which
 * the client asked for or the gateway did; in the second case that chunk is removed, and every other byte reaches
 * the client as the server sent it;</li>
 * <li>a response that reports no usage (a stream cut by an error or a client that went away, a server that sends
 * none): the prompt as the gateway estimated it, if the request reached a model server and was not answered with an
 * error, plus one output token per content chunk relayed (a chunk whose delta carries non-empty {@code content},
 * {@code text} or tool-call {@code arguments}; engines stream one token per chunk unless they batch).</li>
 * </ul>
 * SSE events may arrive split across buffers in any way: a partial event waits for its end before it is judged,
 * and, when chunks are removed, before it is relayed.
 */
public final class ResponseUsage {

	static final int TAIL_BYTES = 4096;

	private static final JsonFactory JSON = new JsonFactory();

	private static final byte[] USAGE_KEY = bytes("\"usage\"");

	private static final byte[] EMPTY_CHOICES = bytes("\"choices\":[]");

	private static final byte[][] CONTENT_KEYS = { bytes("\"content\":\""), bytes("\"text\":\""),
			bytes("\"arguments\":\"") };

	private static final byte[] EMPTY = new byte[0];

	private final boolean removeUsageChunk;

	private byte[] tail;

	private int tailLength;

	private byte[] partialEvent = EMPTY;

	/** Where a buffer of a stream is read, with the partial event before it; reused from buffer to buffer. */
	private byte[] scratch = EMPTY;

	private long contentChunks;

	private long promptTokens = -1;

	private long completionTokens = -1;

	/** @param removeUsageChunk whether the gateway asked for the stream's usage chunk, so the client must not see it */
	public ResponseUsage(boolean removeUsageChunk) {
		this.removeUsageChunk = removeUsageChunk;
	}

	/** Notes a buffer of a JSON response; the buffer itself is untouched. */
	public synchronized void readJson(DataBuffer buffer) {
		if (tail == null) {
			tail = new byte[TAIL_BYTES];
		}
		int length = buffer.readableByteCount();
		int start = buffer.readPosition();
		if (length >= TAIL_BYTES) {
			buffer.toByteBuffer(start + length - TAIL_BYTES, ByteBuffer.wrap(tail), 0, TAIL_BYTES);
			tailLength = TAIL_BYTES;
			return;
		}
		int keep = Math.min(tailLength, TAIL_BYTES - length);
		System.arraycopy(tail, tailLength - keep, tail, 0, keep);
		buffer.toByteBuffer(start, ByteBuffer.wrap(tail), keep, length);
		tailLength = keep + length;
	}

	/**
	 * Reads the events of one buffer of an SSE stream and returns what to relay: {@code buffer} itself, or, when a
	 * usage chunk is removed, a buffer of the other events (a partial event is then relayed with the buffer that
	 * completes it). A buffer of whole events none of which is removed is relayed as it is, uncopied.
	 */
	public synchronized DataBuffer readEvents(DataBuffer buffer, DataBufferFactory factory) {
		int length = buffer.readableByteCount();
		int carried = partialEvent.length;
		int total = carried + length;
		if (scratch.length < total) {
			scratch = new byte[Math.max(total, 2 * scratch.length)];
		}
		byte[] data = scratch;
		System.arraycopy(partialEvent, 0, data, 0, carried);
		buffer.toByteBuffer(buffer.readPosition(), ByteBuffer.wrap(data), carried, length);
		// the events to relay, copied only once one is removed
		byte[] relayed = null;
		int relayedLength = 0;
		int start = 0;
		int end;
		while ((end = eventEnd(data, start, total)) > 0) {
			boolean removed = readEvent(data, start, end) && removeUsageChunk;
			if (removed && relayed == null) {
				relayed = Arrays.copyOf(data, total);
				relayedLength = start;
			}
			else if (!removed && relayed != null) {
				System.arraycopy(data, start, relayed, relayedLength, end - start);
				relayedLength += end - start;
			}
			start = end;
		}
		partialEvent = (start < total) ? Arrays.copyOfRange(data, start, total) : EMPTY;
		if (!removeUsageChunk || (relayed == null && carried == 0 && start == total)) {
			// the buffer holds whole events only, all relayed as they are: one event per buffer, as engines send
			return buffer;
		}
		DataBufferUtils.release(buffer);
		return factory.wrap((relayed != null) ? Arrays.copyOf(relayed, relayedLength) : Arrays.copyOf(data, start));
	}

	/** The bytes of a stream's last event when the stream ended without the blank line after it, or nothing. */
	public synchronized byte[] unfinishedEvent() {
		if (!removeUsageChunk || partialEvent.length == 0) {
			return EMPTY;
		}
		byte[] rest = partialEvent;
		readEvent(rest, 0, rest.length);
		partialEvent = EMPTY;
		return rest;
	}

	/**
	 * The tokens used: as reported, else as counted.
	 *
	 * @param estimatedPromptTokens the gateway's estimate of the prompt
	 * @param promptProcessed whether a model server took the request and answered without error, so its prompt
	 * counts even when no usage was reported
	 */
	public synchronized TokenUsage tokens(long estimatedPromptTokens, boolean promptProcessed) {
		if (promptTokens < 0 && tailLength > 0) {
			int usage = lastUsageObject(tail, 0, tailLength);
			if (usage >= 0) {
				readUsage(tail, usage, tailLength);
			}
		}
		if (promptTokens >= 0 && completionTokens >= 0) {
			return new TokenUsage(promptTokens, completionTokens, true);
		}
		if (!promptProcessed && contentChunks == 0) {
			return TokenUsage.NONE;
		}
		return new TokenUsage(estimatedPromptTokens, contentChunks, false);
	}

	/** Content chunks relayed so far. */
	public synchronized long contentChunks() {
		return contentChunks;
	}

	/** Judges the event in {@code [start, end)}; returns whether it is a usage chunk to remove. */
	private boolean readEvent(byte[] data, int start, int end) {
		int usage = lastUsageObject(data, start, end);
		if (usage >= 0) {
			readUsage(data, usage, end);
		}
		boolean usageOnly = usage >= 0 && indexOf(data, start, end, EMPTY_CHOICES) >= 0;
		if (!usageOnly) {
			for (byte[] key : CONTENT_KEYS) {
				int at = indexOf(data, start, end, key);
				if (at >= 0 && at + key.length < end && data[at + key.length] != '"') {
					contentChunks++;
					break;
				}
			}
		}
		return usageOnly;
	}

	/** The end (just past the blank line) of the SSE event starting at {@code start}, or -1 when incomplete. */
	private static int eventEnd(byte[] data, int start, int end) {
		for (int i = start; i + 1 < end; i++) {
			if (data[i] == '\n') {
				if (data[i + 1] == '\n') {
					return i + 2;
				}
				if (data[i + 1] == '\r' && i + 2 < end && data[i + 2] == '\n') {
					return i + 3;
				}
			}
		}
		return -1;
	}

	/**
	 * The offset of the {@code {} opening the last {@code "usage"} object in {@code [start, end)}, or -1. Inside a
	 * JSON string every quote is escaped, so a {@code "usage"} after a comma or brace is a key.
	 */
	static int lastUsageObject(byte[] data, int start, int end) {
		for (int at = lastIndexOf(data, start, end, USAGE_KEY); at >= 0; at = lastIndexOf(data, start, at, USAGE_KEY)) {
			int before = at - 1;
			while (before >= start && isSpace(data[before])) {
				before--;
			}
			if (before < start || (data[before] != ',' && data[before] != '{')) {
				continue;
			}
			int after = at + USAGE_KEY.length;
			while (after < end && isSpace(data[after])) {
				after++;
			}
			if (after >= end || data[after] != ':') {
				continue;
			}
			after++;
			while (after < end && isSpace(data[after])) {
				after++;
			}
			return (after < end && data[after] == '{') ? after : -1;
		}
		return -1;
	}

	private void readUsage(byte[] data, int objectStart, int end) {
		long prompt = -1;
		long completion = -1;
		try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), data, objectStart, end - objectStart)) {
			if (parser.nextToken() != JsonToken.START_OBJECT) {
				return;
			}
			while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
				String name = parser.currentName();
				JsonToken value = parser.nextToken();
				// the Responses API names them input and output tokens
				if (value == JsonToken.VALUE_NUMBER_INT && ("prompt_tokens".equals(name) || "input_tokens".equals(name))) {
					prompt = parser.getLongValue();
				}
				else if (value == JsonToken.VALUE_NUMBER_INT
						&& ("completion_tokens".equals(name) || "output_tokens".equals(name))) {
					completion = parser.getLongValue();
				}
				else {
					parser.skipChildren();
				}
			}
		}
		catch (JacksonException ex) {
			return;
		}
		if (prompt >= 0) {
			// an embedding's usage has no completion tokens
			promptTokens = prompt;
			completionTokens = Math.max(completion, 0);
		}
	}

	private static boolean isSpace(byte b) {
		return b == ' ' || b == '\n' || b == '\r' || b == '\t';
	}

	private static int indexOf(byte[] data, int start, int end, byte[] pattern) {
		outer: for (int i = start; i <= end - pattern.length; i++) {
			for (int j = 0; j < pattern.length; j++) {
				if (data[i + j] != pattern[j]) {
					continue outer;
				}
			}
			return i;
		}
		return -1;
	}

	private static int lastIndexOf(byte[] data, int start, int end, byte[] pattern) {
		outer: for (int i = end - pattern.length; i >= start; i--) {
			for (int j = 0; j < pattern.length; j++) {
				if (data[i + j] != pattern[j]) {
					continue outer;
				}
			}
			return i;
		}
		return -1;
	}

	private static byte[] bytes(String text) {
		return text.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
	}
}
