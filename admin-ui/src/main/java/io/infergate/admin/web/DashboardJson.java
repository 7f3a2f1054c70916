package io.infergate.admin.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The dashboard's JSON: compact, fields that are {@code null} left out (a section without a source is absent). */
public final class DashboardJson {

	private final JsonMapper mapper = JsonMapper.builder()
		.changeDefaultPropertyInclusion((inclusion) -> inclusion.withValueInclusion(JsonInclude.Include.NON_NULL))
		.build();

	public String write(Object value) {
		return mapper.writeValueAsString(value);
	}

	public byte[] writeBytes(Object value) {
		return mapper.writeValueAsBytes(value);
	}

	/** The JSON in {@code bytes} as a tree; throws Jackson's exception when it is not JSON. */
	public JsonNode read(byte[] bytes) {
		return mapper.readTree(bytes);
	}
}
