package io.infergate.routing.openai;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;

import io.infergate.routing.limits.TokenUsage;

import static org.assertj.core.api.Assertions.assertThat;

class ResponseUsageTests {

	private static final DefaultDataBufferFactory BUFFERS = DefaultDataBufferFactory.sharedInstance;

	private static final String CONTENT = "data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":null}]}\n\n";

	private static final String ROLE = "data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n";

	private static final String USAGE = "data: {\"id\":\"c\",\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":2,\"total_tokens\":14}}\n\n";

	private static final String DONE = "data: [DONE]\n\n";

	private static DataBuffer buffer(String text) {
		return BUFFERS.wrap(text.getBytes(StandardCharsets.UTF_8));
	}

	private static String relay(ResponseUsage usage, String... chunks) {
		StringBuilder relayed = new StringBuilder();
		for (String chunk : chunks) {
			relayed.append(usage.readEvents(buffer(chunk), BUFFERS).toString(StandardCharsets.UTF_8));
		}
		return relayed.append(new String(usage.unfinishedEvent(), StandardCharsets.UTF_8)).toString();
	}

	@Test
	void readsTheUsageAtTheEndOfAJsonResponseWithItsCachedPromptTokens() {
		ResponseUsage usage = new ResponseUsage(false);
		usage.readJson(buffer("{\"id\":\"c\",\"choices\":[{\"message\":{\"content\":\"say \\\"usage\\\":{\\\"prompt_tokens\\\":1}\"}}],"));
		usage.readJson(buffer("\"usage\": {\"prompt_tokens\":31,\"completion_tokens\":7,\"total_tokens\":38,"
				+ "\"prompt_tokens_details\":{\"cached_tokens\":16}}}"));

		assertThat(usage.tokens(99, true)).isEqualTo(new TokenUsage(31, 7, true, 16));
	}

	@Test
	void readsTheCachedPromptTokensOfAStreamsUsageChunkWhateverComesAroundThem() {
		ResponseUsage usage = new ResponseUsage(true);

		String relayed = relay(usage, ROLE, CONTENT, "data: {\"id\":\"c\",\"choices\":[],\"usage\":{\"prompt_tokens\":40,"
				+ "\"prompt_tokens_details\":{\"audio_tokens\":0,\"cached_tokens\":32,\"extra\":{\"cached_tokens\":1}},"
				+ "\"completion_tokens\":1,\"total_tokens\":41}}\n\n", DONE);

		assertThat(usage.tokens(99, true)).isEqualTo(new TokenUsage(40, 1, true, 32));
		assertThat(relayed).isEqualTo(ROLE + CONTENT + DONE);
	}

	@Test
	void cachedPromptTokensNeverExceedThePromptAndMissingOnesAreZero() {
		ResponseUsage more = new ResponseUsage(false);
		more.readJson(buffer("{\"usage\":{\"prompt_tokens\":8,\"completion_tokens\":1,"
				+ "\"prompt_tokens_details\":{\"cached_tokens\":64}}}"));
		ResponseUsage none = new ResponseUsage(false);
		none.readJson(buffer("{\"usage\":{\"prompt_tokens\":8,\"completion_tokens\":1,\"prompt_tokens_details\":null}}"));

		assertThat(more.tokens(99, true)).isEqualTo(new TokenUsage(8, 1, true, 8));
		assertThat(none.tokens(99, true)).isEqualTo(new TokenUsage(8, 1, true, 0));
	}

	@Test
	void readsAnEmbeddingsUsageWithoutCompletionTokens() {
		ResponseUsage usage = new ResponseUsage(false);
		usage.readJson(buffer("{\"object\":\"list\",\"data\":[{\"embedding\":[0.1]}],"
				+ "\"usage\":{\"prompt_tokens\":9,\"total_tokens\":9}}"));

		assertThat(usage.tokens(99, true)).isEqualTo(new TokenUsage(9, 0, true));
	}

	@Test
	void readsTheResponsesApisInputAndOutputTokensFromItsCompletedEvent() {
		ResponseUsage usage = new ResponseUsage(false);

		relay(usage, "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\":\"Hi\"}\n\n",
				"event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"r\","
						+ "\"usage\":{\"input_tokens\":21,\"input_tokens_details\":{\"cached_tokens\":16},"
						+ "\"output_tokens\":5,\"total_tokens\":26}}}\n\n");

		assertThat(usage.tokens(99, true)).isEqualTo(new TokenUsage(21, 5, true, 16));
	}

	@Test
	void removesTheUsageChunkItAskedForWhereverTheBuffersSplitTheEvents() {
		String stream = ROLE + CONTENT + CONTENT + USAGE + DONE;
		ResponseUsage usage = new ResponseUsage(true);

		String relayed = relay(usage, stream.substring(0, 17), stream.substring(17, stream.length() - 40),
				stream.substring(stream.length() - 40));

		assertThat(relayed).isEqualTo(ROLE + CONTENT + CONTENT + DONE);
		assertThat(usage.tokens(99, true)).isEqualTo(new TokenUsage(12, 2, true));
	}

	@Test
	void relaysTheUsageChunkTheClientAskedFor() {
		ResponseUsage usage = new ResponseUsage(false);

		String relayed = relay(usage, ROLE + CONTENT, USAGE + DONE);

		assertThat(relayed).isEqualTo(ROLE + CONTENT + USAGE + DONE);
		assertThat(usage.tokens(99, true)).isEqualTo(new TokenUsage(12, 2, true));
	}

	@Test
	void aStreamCutBeforeItsUsageCountsTheEstimatedPromptAndOneTokenPerContentChunk() {
		ResponseUsage usage = new ResponseUsage(true);

		relay(usage, ROLE + CONTENT + CONTENT + CONTENT);

		assertThat(usage.contentChunks()).isEqualTo(3);
		assertThat(usage.tokens(40, false)).isEqualTo(new TokenUsage(40, 3, false));
	}

	@Test
	void aRequestThatNoModelServerProcessedCostsNothing() {
		assertThat(new ResponseUsage(false).tokens(40, false)).isEqualTo(TokenUsage.NONE);
		assertThat(new ResponseUsage(false).tokens(40, true)).isEqualTo(new TokenUsage(40, 0, false));
	}

	@Test
	void readsTheCountsPastNestedObjectsArraysAndStringsHoldingBracesAndQuotes() {
		ResponseUsage usage = new ResponseUsage(false);
		usage.readJson(buffer("{\"usage\":{\"note\":\"a } \\\" ] {\",\"prompt_tokens_details\":{\"cached_tokens\":3,"
				+ "\"deep\":[{\"completion_tokens\":999}]},\"flag\":true,\"x\":null,\"prompt_tokens\" : 40 ,"
				+ "\"completion_tokens\":6}}"));

		assertThat(usage.tokens(99, true)).isEqualTo(new TokenUsage(40, 6, true, 3));
	}

	@Test
	void ignoresAUsageObjectThatIsTruncatedMalformedOrNotInIntegers() {
		for (String json : new String[] { "{\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":3",
				"{\"usage\":{\"prompt_tokens\" 12,\"completion_tokens\":3}}",
				"{\"usage\":{\"prompt_tokens\":1.5,\"completion_tokens\":3}}",
				"{\"usage\":{\"prompt_tokens\":\"12\",\"completion_tokens\":3}}",
				"{\"usage\":{\"prompt_tokens\":-12,\"completion_tokens\":3}}",
				"{\"usage\":{\"prompt_tokens\":12 \"completion_tokens\":3}}" }) {
			ResponseUsage usage = new ResponseUsage(false);
			usage.readJson(buffer(json));

			assertThat(usage.tokens(99, true)).as(json).isEqualTo(new TokenUsage(99, 0, false));
		}
	}
}
