package io.infergate.gateway.support;

import java.util.List;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.system.CapturedOutput;

/** The access log's lines in a test's captured output, each parsed. */
public final class AccessLines {

	private AccessLines() {
	}

	public static List<JsonNode> in(CapturedOutput output) {
		return output.getOut()
			.lines()
			.filter((line) -> line.startsWith("{\"time\""))
			.map((line) -> JsonMapper.shared().readTree(line))
			.toList();
	}
}
