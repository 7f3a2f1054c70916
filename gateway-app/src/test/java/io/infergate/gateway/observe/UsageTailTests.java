package io.infergate.gateway.observe;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;

import static org.assertj.core.api.Assertions.assertThat;

class UsageTailTests {

	private static final String COMPLETION = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
			+ "\"message\":{\"role\":\"assistant\",\"content\":\"The usage of \\\"usage\\\" in text\"}}],"
			+ "\"usage\":{\"prompt_tokens\":17,\"completion_tokens\":5,\"total_tokens\":22,"
			+ "\"prompt_tokens_details\":{\"cached_tokens\":16}},\"prompt_logprobs\":null}";

	private final UsageTail tail = new UsageTail();

	private static DataBuffer buffer(String text) {
		return DefaultDataBufferFactory.sharedInstance.wrap(text.getBytes(StandardCharsets.UTF_8));
	}

	private static String sseChunk(String choices, String usage) {
		return "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":" + choices
				+ ((usage != null) ? ",\"usage\":" + usage : "") + "}\n\n";
	}

	@Test
	void readsTheUsageAtTheEndOfACompletion() {
		tail.append(buffer(COMPLETION));

		assertThat(tail.usage()).isEqualTo(new TokenUsage(17, 5));
	}

	@Test
	void readsTheFinalUsageChunkOfAStreamSplitAcrossBuffers() {
		StringBuilder stream = new StringBuilder();
		for (int i = 0; i < 200; i++) {
			stream.append(sseChunk("[{\"index\":0,\"delta\":{\"content\":\" word\"}}]", null));
		}
		stream.append(sseChunk("[]", "{\"prompt_tokens\":1234,\"completion_tokens\":200,\"total_tokens\":1434}"));
		stream.append("data: [DONE]\n\n");
		String text = stream.toString();

		for (int at = 0; at < text.length(); at += 37) {
			tail.append(buffer(text.substring(at, Math.min(text.length(), at + 37))));
		}

		assertThat(tail.usage()).isEqualTo(new TokenUsage(1234, 200));
	}

	@Test
	void lastUsageWinsWhenEveryChunkCarriesOne() {
		tail.append(buffer(sseChunk("[]", "{\"prompt_tokens\":9,\"completion_tokens\":1}")));
		tail.append(buffer(sseChunk("[]", "{\"prompt_tokens\":9,\"completion_tokens\":2}")));

		assertThat(tail.usage()).isEqualTo(new TokenUsage(9, 2));
	}

	@Test
	void aBufferLargerThanTheTailKeepsItsLastBytes() {
		String padding = "x".repeat(UsageTail.CAPACITY * 3 + 11);

		tail.append(buffer("{\"text\":\"" + padding + "\"," + COMPLETION.substring(1)));

		assertThat(tail.usage()).isEqualTo(new TokenUsage(17, 5));
	}

	@Test
	void appendingLeavesTheBufferUnread() {
		DataBuffer buffer = buffer(COMPLETION);

		tail.append(buffer);

		assertThat(buffer.readableByteCount()).isEqualTo(COMPLETION.length());
	}

	@Test
	void noUsageWhenTheStreamHasNone() {
		tail.append(buffer(sseChunk("[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]", null) + "data: [DONE]\n\n"));

		assertThat(tail.usage()).isNull();
	}

	@Test
	void noUsageWhenItIsNull() {
		tail.append(buffer(sseChunk("[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]", "null")));

		assertThat(tail.usage()).isNull();
	}

	@Test
	void noUsageBeforeAnyByte() {
		assertThat(tail.usage()).isNull();
	}
}
