package io.infergate.sim.http;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The module's one JSON mapper, used to parse request bodies and build small replies. */
final class Json {

	static final JsonMapper MAPPER = JsonMapper.builder().build();

	private Json() {
	}

	/** Parses a request body that must be a JSON object; anything else is a 400. */
	static JsonNode readObject(byte[] body) throws OpenAiError {
		JsonNode root;
		try {
			root = MAPPER.readTree(body);
		}
		catch (JacksonException ex) {
			throw OpenAiError.badRequest("Invalid JSON in request body: " + ex.getOriginalMessage(), null);
		}
		if (root == null || !root.isObject()) {
			throw OpenAiError.badRequest("The request body must be a JSON object.", null);
		}
		return root;
	}

	/** Builds the mapper now, on the caller's thread, so that the first request does not pay for it. */
	static void warmUp() {
		MAPPER.readTree("{\"warm\":[1,\"up\"]}");
	}
}
