package io.infergate.sim.http;

import tools.jackson.databind.json.JsonMapper;

/** The module's one JSON mapper, used to parse request bodies and build small replies. */
final class Json {

	static final JsonMapper MAPPER = JsonMapper.builder().build();

	private Json() {
	}

	/** Builds the mapper now, on the caller's thread, so that the first request does not pay for it. */
	static void warmUp() {
		MAPPER.readTree("{\"warm\":[1,\"up\"]}");
	}
}
