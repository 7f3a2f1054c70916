package io.infergate.gateway.route;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class UpstreamRetryFilterTests {

	@Test
	void recognisesTheContextLengthErrorsOfVllmAndSglang() {
		assertThat(contextLength("{\"error\":{\"message\":\"'max_tokens' or 'max_completion_tokens' is too large: "
				+ "8000. This model's maximum context length is 4096 tokens and your request has 2778 input tokens "
				+ "(8000 > 4096 - 2778).\",\"type\":\"BadRequestError\",\"param\":null,\"code\":400}}")).isTrue();
		assertThat(contextLength("{\"object\":\"error\",\"message\":\"This model's maximum context length is 2048 "
				+ "tokens. However, you requested 2100 tokens (2000 in the messages, 100 in the completion). Please "
				+ "reduce the length of the messages or completion.\",\"type\":\"BadRequestError\",\"code\":400}"))
			.isTrue();
		assertThat(contextLength("{\"object\":\"error\",\"message\":\"The input (5000 tokens) is longer than the "
				+ "model's context length (4096 tokens).\",\"type\":\"BadRequestError\",\"code\":400}")).isTrue();
	}

	@Test
	void otherBadRequestsAreNotContextLengthErrors() {
		assertThat(contextLength("{\"error\":{\"message\":\"The request needs 8 KV-cache blocks but the engine has "
				+ "only 4.\",\"type\":\"BadRequestError\",\"param\":\"messages\",\"code\":400}}")).isFalse();
		assertThat(contextLength("")).isFalse();
	}

	private static boolean contextLength(String body) {
		return UpstreamRetryFilter.isContextLengthError(body.getBytes(StandardCharsets.UTF_8));
	}
}
