package io.infergate.gateway.route;

import java.nio.charset.StandardCharsets;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

import io.infergate.routing.openai.StreamOptions;

/**
 * Asks a streamed request for its usage chunk, {@code "stream_options":{"include_usage":true}}, changing nothing
 * else in the body: the object is added right after the body's opening brace when the client sent no
 * {@code stream_options}, and otherwise {@code include_usage} is set inside the client's own.
 */
public final class StreamOptionsRewriter {

	private static final JsonFactory JSON = new JsonFactory();

	private static final byte[] ADDED_OPTIONS = "\"stream_options\":{\"include_usage\":true},"
		.getBytes(StandardCharsets.US_ASCII);

	private StreamOptionsRewriter() {
	}

	/** {@code body} (a valid JSON object) asking for usage; {@code options} is what the parser found. */
	public static byte[] includeUsage(byte[] body, StreamOptions options) {
		return switch (options) {
			case INCLUDE_USAGE -> body;
			case ABSENT -> insert(body, ModelRewriter.openingBrace(body) + 1, ADDED_OPTIONS);
			case NULL, WITHOUT_USAGE -> rewriteOptions(body);
		};
	}

	private static byte[] rewriteOptions(byte[] body) {
		try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), body)) {
			parser.nextToken();
			while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
				String name = parser.currentName();
				JsonToken value = parser.nextToken();
				if (!"stream_options".equals(name)) {
					parser.skipChildren();
					continue;
				}
				int start = (int) parser.currentTokenLocation().getByteOffset();
				if (value == JsonToken.VALUE_NULL) {
					return replace(body, start, start + 4, "{\"include_usage\":true}");
				}
				boolean empty = true;
				while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
					empty = false;
					String option = parser.currentName();
					JsonToken optionValue = parser.nextToken();
					if ("include_usage".equals(option)) {
						int at = (int) parser.currentTokenLocation().getByteOffset();
						int length = (optionValue == JsonToken.VALUE_FALSE) ? 5 : 4; // false or null
						return replace(body, at, at + length, "true");
					}
					parser.skipChildren();
				}
				return insert(body, start + 1, (empty ? "\"include_usage\":true" : "\"include_usage\":true,")
					.getBytes(StandardCharsets.US_ASCII));
			}
		}
		throw new IllegalArgumentException("the body has no stream_options");
	}

	private static byte[] replace(byte[] body, int start, int end, String replacement) {
		return ModelRewriter.splice(body, start, end, replacement.getBytes(StandardCharsets.US_ASCII));
	}

	private static byte[] insert(byte[] body, int at, byte[] inserted) {
		return ModelRewriter.splice(body, at, at, inserted);
	}
}
