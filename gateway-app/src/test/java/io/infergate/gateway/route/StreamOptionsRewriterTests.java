package io.infergate.gateway.route;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.infergate.routing.openai.StreamOptions;

import static org.assertj.core.api.Assertions.assertThat;

class StreamOptionsRewriterTests {

	private static String rewrite(String body, StreamOptions options) {
		return new String(StreamOptionsRewriter.includeUsage(body.getBytes(StandardCharsets.UTF_8), options),
				StandardCharsets.UTF_8);
	}

	@Test
	void addsTheOptionRightAfterTheOpeningBraceLeavingEveryOtherByte() {
		assertThat(rewrite(" {\"model\":\"m\", \"stream\":true}", StreamOptions.ABSENT))
			.isEqualTo(" {\"stream_options\":{\"include_usage\":true},\"model\":\"m\", \"stream\":true}");
	}

	@Test
	void setsIncludeUsageInsideTheClientsOwnOptions() {
		assertThat(rewrite("{\"stream_options\":{\"include_usage\":false,\"x\":1},\"model\":\"m\"}",
				StreamOptions.WITHOUT_USAGE))
			.isEqualTo("{\"stream_options\":{\"include_usage\":true,\"x\":1},\"model\":\"m\"}");
		assertThat(rewrite("{\"model\":\"m\",\"stream_options\":{\"continuous_usage_stats\":false}}",
				StreamOptions.WITHOUT_USAGE))
			.isEqualTo("{\"model\":\"m\",\"stream_options\":{\"include_usage\":true,\"continuous_usage_stats\":false}}");
		assertThat(rewrite("{\"model\":\"m\",\"stream_options\":{}}", StreamOptions.WITHOUT_USAGE))
			.isEqualTo("{\"model\":\"m\",\"stream_options\":{\"include_usage\":true}}");
		assertThat(rewrite("{\"model\":\"m\",\"stream_options\":null}", StreamOptions.NULL))
			.isEqualTo("{\"model\":\"m\",\"stream_options\":{\"include_usage\":true}}");
	}

	@Test
	void leavesABodyThatAlreadyAsksForUsage() {
		String body = "{\"model\":\"m\",\"stream_options\":{\"include_usage\":true}}";

		assertThat(rewrite(body, StreamOptions.INCLUDE_USAGE)).isEqualTo(body);
	}
}
