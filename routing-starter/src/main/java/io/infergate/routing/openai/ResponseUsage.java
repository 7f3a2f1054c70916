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

	/** {@link #usageObject}: no {@code "usage"} key at that quote. */
	private static final int NOT_A_KEY = -2;

	private final boolean removeUsageChunk;

	private byte[] tail;

	private int tailLength;

	private byte[] partialEvent = EMPTY;

	/** Where a buffer of a stream is read, with the partial event before it; reused from buffer to buffer. */
	private byte[] scratch = EMPTY;

	private long contentChunks;

	/** Whether the event {@link #readEvent} read last is a usage chunk: empty choices and a usage object. */
	private boolean usageOnly;

	private long promptTokens = -1;

	private long completionTokens = -1;

	private long cachedPromptTokens;

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
		while ((end = readEvent(data, start, total, false)) > 0) {
			boolean removed = usageOnly && removeUsageChunk;
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
		readEvent(rest, 0, rest.length, true);
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
			return new TokenUsage(promptTokens, completionTokens, true, cachedPromptTokens);
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

	/**
	 * Reads the SSE event that starts at {@code start}, in one pass: its end is the first blank line, and keys are
	 * looked for only at quotes, so most bytes cost one comparison. A complete event is judged: its usage read, its
	 * content counted, {@link #usageOnly} set.
	 *
	 * @param limitEndsEvent whether {@code limit} ends the event (a stream that ended without the blank line)
	 * @return the event's end, just past the blank line (or {@code limit}), or -1 when it is not complete yet
	 */
	private int readEvent(byte[] data, int start, int limit, boolean limitEndsEvent) {
		int usage = -1;
		boolean emptyChoices = false;
		boolean content = false;
		int end = -1;
		for (int i = start; i < limit; i++) {
			byte b = data[i];
			if (b == '"' && i + 1 < limit) {
				byte key = data[i + 1];
				if (key == 'u') {
					int object = usageObject(data, start, i, limit);
					if (object != NOT_A_KEY) {
						usage = object;
					}
				}
				else if (key == 'c') {
					if (startsWith(data, i, limit, EMPTY_CHOICES)) {
						emptyChoices = true;
					}
					else if (!content) {
						content = nonEmptyString(data, i, limit, CONTENT_KEYS[0]);
					}
				}
				else if (!content && key == 't') {
					content = nonEmptyString(data, i, limit, CONTENT_KEYS[1]);
				}
				else if (!content && key == 'a') {
					content = nonEmptyString(data, i, limit, CONTENT_KEYS[2]);
				}
			}
			else if (b == '\n' && i + 1 < limit) {
				byte next = data[i + 1];
				if (next == '\n') {
					end = i + 2;
					break;
				}
				if (next == '\r' && i + 2 < limit && data[i + 2] == '\n') {
					end = i + 3;
					break;
				}
			}
		}
		if (end < 0) {
			if (!limitEndsEvent) {
				return -1;
			}
			end = limit;
		}
		if (usage >= 0) {
			readUsage(data, usage, end);
		}
		usageOnly = usage >= 0 && emptyChoices;
		if (!usageOnly && content) {
			contentChunks++;
		}
		return end;
	}

	/** Whether {@code data} holds {@code key} at {@code at}, followed by a string that is not empty. */
	private static boolean nonEmptyString(byte[] data, int at, int limit, byte[] key) {
		return startsWith(data, at, limit, key) && at + key.length < limit && data[at + key.length] != '"';
	}

	private static boolean startsWith(byte[] data, int at, int limit, byte[] pattern) {
		if (at + pattern.length > limit) {
			return false;
		}
		for (int j = 1; j < pattern.length; j++) {
			if (data[at + j] != pattern[j]) {
				return false;
			}
		}
		return true;
	}

	/**
	 * At a quote: {@link #NOT_A_KEY} unless a {@code "usage"} key starts there (after a comma or brace: inside a JSON
	 * string every quote is escaped); otherwise the offset of the {@code {} opening its object, or -1 when its value is
	 * not an object.
	 */
	private static int usageObject(byte[] data, int start, int at, int limit) {
		if (!startsWith(data, at, limit, USAGE_KEY)) {
			return NOT_A_KEY;
		}
		int before = at - 1;
		while (before >= start && isSpace(data[before])) {
			before--;
		}
		if (before < start || (data[before] != ',' && data[before] != '{')) {
			return NOT_A_KEY;
		}
		int after = at + USAGE_KEY.length;
		while (after < limit && isSpace(data[after])) {
			after++;
		}
		if (after >= limit || data[after] != ':') {
			return NOT_A_KEY;
		}
		after++;
		while (after < limit && isSpace(data[after])) {
			after++;
		}
		return (after < limit && data[after] == '{') ? after : -1;
	}

	/**
	 * The offset of the {@code {} opening the last {@code "usage"} object in {@code [start, end)}, or -1. Inside a
	 * JSON string every quote is escaped, so a {@code "usage"} after a comma or brace is a key.
	 */
	static int lastUsageObject(byte[] data, int start, int end) {
		for (int at = lastIndexOf(data, start, end, USAGE_KEY); at >= 0; at = lastIndexOf(data, start, at, USAGE_KEY)) {
			int object = usageObject(data, start, at, end);
			if (object != NOT_A_KEY) {
				return object;
			}
		}
		return -1;
	}

	private void readUsage(byte[] data, int objectStart, int end) {
		long prompt = -1;
		long completion = -1;
		long cached = 0;
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
				else if (value == JsonToken.START_OBJECT
						&& ("prompt_tokens_details".equals(name) || "input_tokens_details".equals(name))) {
					cached = cachedTokens(parser);
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
			cachedPromptTokens = Math.max(0, Math.min(cached, prompt));
		}
	}

	/** The {@code cached_tokens} of a details object the parser has just opened; 0 when it has none. */
	private static long cachedTokens(JsonParser parser) {
		long cached = 0;
		while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
			String name = parser.currentName();
			JsonToken value = parser.nextToken();
			if (value == JsonToken.VALUE_NUMBER_INT && "cached_tokens".equals(name)) {
				cached = parser.getLongValue();
			}
			else {
				parser.skipChildren();
			}
		}
		return cached;
	}

	private static boolean isSpace(byte b) {
		return b == ' ' || b == '\n' || b == '\r' || b == '\t';
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
