package io.infergate.gateway.route;


import tools.jackson.core.io.JsonStringEncoder;

import io.infergate.routing.openai.ParsedRequest;

/** Replaces the {@code model} value of a request body in place, leaving every other byte as the client sent it. */
public final class ModelRewriter {

	private ModelRewriter() {
	}

	public static byte[] rewrite(byte[] body, ParsedRequest parsed, String model) {
		if (model.equals(parsed.model())) {
			return body;
		}
		return splice(body, parsed.modelValueStart(), parsed.modelValueEnd(), quote(model));
	}

	/** {@code body} with the bytes in {@code [start, end)} replaced by {@code replacement}. */
	static byte[] splice(byte[] body, int start, int end, byte[] replacement) {
		byte[] result = new byte[body.length - (end - start) + replacement.length];
		System.arraycopy(body, 0, result, 0, start);
		System.arraycopy(replacement, 0, result, start, replacement.length);
		System.arraycopy(body, end, result, start + replacement.length, body.length - end);
		return result;
	}

	/** Where the body's opening brace is (a JSON object may start with whitespace). */
	static int openingBrace(byte[] body) {
		for (int i = 0; i < body.length; i++) {
			if (body[i] == '{') {
				return i;
			}
		}
		throw new IllegalArgumentException("the body is not a JSON object");
	}

	private static byte[] quote(String value) {
		byte[] escaped = JsonStringEncoder.getInstance().quoteAsUTF8(value);
		byte[] quoted = new byte[escaped.length + 2];
		quoted[0] = '"';
		System.arraycopy(escaped, 0, quoted, 1, escaped.length);
		quoted[quoted.length - 1] = '"';
		return quoted;
	}
}
