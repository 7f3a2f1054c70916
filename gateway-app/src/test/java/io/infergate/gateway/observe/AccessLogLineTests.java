package io.infergate.gateway.observe;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.infergate.routing.limits.TokenUsage;

import static org.assertj.core.api.Assertions.assertThat;

class AccessLogLineTests {

	@Test
	void oneJsonObjectWithEveryFieldAndNullForWhatIsUnknown() {
		CompletedRequest request = new CompletedRequest("a1-7", null, null, "gpt \"mini\"", "llama", "10.0.0.5:8000",
				"default", 200, true, true, 12_345_678, 250_000_000, new TokenUsage(40, 8, true, 16), -1, -1, 0.0000123);

		String line = AccessLog.line(request, Instant.parse("2026-01-02T03:04:05Z"));

		assertThat(line).isEqualTo("{\"time\":\"2026-01-02T03:04:05Z\",\"requestId\":\"a1-7\",\"keyId\":null,"
				+ "\"tenant\":null,\"model\":\"gpt \\\"mini\\\"\",\"pool\":\"llama\",\"endpoint\":\"10.0.0.5:8000\","
				+ "\"status\":200,\"stream\":true,\"completed\":true,\"ttftMs\":12.345,\"durationMs\":250.0,"
				+ "\"inputTokens\":40,\"outputTokens\":8,\"cachedInputTokens\":16,\"cost\":0.0000123,"
				+ "\"queueWaitMs\":null,\"fallbacks\":null}");
	}
}
