package io.infergate.gateway.route;

import java.nio.charset.StandardCharsets;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Sets or removes the top-level {@code priority} of a request body (a valid JSON object, as the parser accepted it),
 * changing no other byte: a client's value is replaced in place, a body without one gets {@code "priority":N,} right
 * after its opening brace, and removal takes the member out with one comma beside it.
 */
public final class PriorityRewriter {

	private static final JsonFactory JSON = new JsonFactory();

	private static final byte[] QUOTED_NAME = "\"priority\"".getBytes(StandardCharsets.US_ASCII);

	private PriorityRewriter() {
	}

	/** {@code body} with {@code "priority":value}; {@code body} itself when it already says exactly that. */
	public static byte[] set(byte[] body, int value) {
		byte[] written = Integer.toString(value).getBytes(StandardCharsets.US_ASCII);
		Member member = find(body);
		if (member == null) {
			byte[] inserted = new byte[written.length + 12];
			System.arraycopy("\"priority\":".getBytes(StandardCharsets.US_ASCII), 0, inserted, 0, 11);
			System.arraycopy(written, 0, inserted, 11, written.length);
			inserted[inserted.length - 1] = ',';
			int brace = ModelRewriter.openingBrace(body);
			return ModelRewriter.splice(body, brace + 1, brace + 1, inserted);
		}
		return ModelRewriter.splice(body, member.valueStart, member.valueEnd, written);
	}

	/** {@code body} without its top-level {@code priority}; {@code body} itself when it has none. */
	public static byte[] remove(byte[] body) {
		Member member = find(body);
		if (member == null) {
			return body;
		}
		int start = member.nameStart;
		int end = member.valueEnd;
		int after = skipWhitespace(body, end);
		if (body[after] == ',') {
			// a following member: take the comma after, and the space before that member
			end = skipWhitespace(body, after + 1);
		}
		else {
			// the last member: take the comma before it, if any
			int before = start - 1;
			while (before >= 0 && isWhitespace(body[before])) {
				before--;
			}
			if (before >= 0 && body[before] == ',') {
				start = before;
			}
		}
		return ModelRewriter.splice(body, start, end, new byte[0]);
	}

	/**
	 * Where the top-level {@code priority} member sits, or {@code null} when the body has none. A body without the
	 * bytes {@code "priority"} anywhere, as nearly every body, is not parsed again.
	 */
	private static Member find(byte[] body) {
		if (!contains(body, QUOTED_NAME)) {
			return null;
		}
		try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), body)) {
			parser.nextToken();
			while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
				int nameStart = (int) parser.currentTokenLocation().getByteOffset();
				String name = parser.currentName();
				JsonToken value = parser.nextToken();
				if ("priority".equals(name)) {
					int valueStart = (int) parser.currentTokenLocation().getByteOffset();
					// the parser accepted only an integer or null, so the value ends at its last digit or 'l'
					int valueEnd = valueStart + ((value == JsonToken.VALUE_NULL) ? 4 : parser.getText().length());
					return new Member(nameStart, valueStart, valueEnd);
				}
				parser.skipChildren();
			}
		}
		return null;
	}

	private static boolean contains(byte[] body, byte[] pattern) {
		outer: for (int i = 0; i + pattern.length <= body.length; i++) {
			for (int j = 0; j < pattern.length; j++) {
				if (body[i + j] != pattern[j]) {
					continue outer;
				}
			}
			return true;
		}
		return false;
	}

	private static int skipWhitespace(byte[] body, int from) {
		int at = from;
		while (at < body.length && isWhitespace(body[at])) {
			at++;
		}
		return at;
	}

	private static boolean isWhitespace(byte b) {
		return b == ' ' || b == '\t' || b == '\n' || b == '\r';
	}

	private record Member(int nameStart, int valueStart, int valueEnd) {
	}
}
