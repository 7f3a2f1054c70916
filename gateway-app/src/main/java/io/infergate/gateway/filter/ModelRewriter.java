package io.infergate.gateway.filter;


import tools.jackson.core.io.JsonStringEncoder;

import io.infergate.routing.openai.ParsedRequest;

/** Replaces the {@code model} value of a request body in place, leaving every other byte as the client sent it. */
final class ModelRewriter {

	private ModelRewriter() {
	}

	static byte[] rewrite(byte[] body, ParsedRequest parsed, String model) {
		if (model.equals(parsed.model())) {
			return body;
		}
		byte[] quoted = quote(model);
		int start = parsed.modelValueStart();
		int end = parsed.modelValueEnd();
		byte[] result = new byte[body.length - (end - start) + quoted.length];
		System.arraycopy(body, 0, result, 0, start);
		System.arraycopy(quoted, 0, result, start, quoted.length);
		System.arraycopy(body, end, result, start + quoted.length, body.length - end);
		return result;
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
