package io.infergate.sim.engine;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TokenizerTests {

	@Test
	void producesOneTokenPerFourCharactersRoundedUp() {
		assertThat(Tokenizer.encode("")).isEmpty();
		assertThat(Tokenizer.encode("abcd")).hasSize(1);
		assertThat(Tokenizer.encode("abcde")).hasSize(2);
		assertThat(Tokenizer.countTokens("abcdefghi")).isEqualTo(3);
	}

	@Test
	void tokenIdsAreAFixedHashStableAcrossRuns() {
		// FNV-1a of "abcd" over UTF-16 code units, masked to 31 bits: pinned so that ids never drift.
		assertThat(Tokenizer.encode("abcd")[0]).isEqualTo(0xce3479bd & 0x7fffffff);
		assertThat(Tokenizer.encode("abcdabcd")).containsExactly(Tokenizer.encode("abcd")[0],
				Tokenizer.encode("abcd")[0]);
	}

	@Test
	void textsSharingAPrefixShareTheTokensOfItsWholeChunks() {
		int[] first = Tokenizer.encode("The system prompt. Question one?");
		int[] second = Tokenizer.encode("The system prompt. Another question?");

		assertThat(Arrays.copyOf(first, 4)).containsExactly(Arrays.copyOf(second, 4));
		assertThat(first[5]).isNotEqualTo(second[5]);
	}

	@Test
	void chatTemplateGivesConversationsWithTheSameFirstMessagesTheSamePrefix() {
		String first = ChatTemplate.render(List.of(new ChatTemplate.Message("system", "Be brief."),
				new ChatTemplate.Message("user", "Hi")));
		String second = ChatTemplate.render(List.of(new ChatTemplate.Message("system", "Be brief."),
				new ChatTemplate.Message("user", "Hello")));

		assertThat(first).isEqualTo("<|system|>\nBe brief.\n<|user|>\nHi\n<|assistant|>\n");
		assertThat(second).startsWith("<|system|>\nBe brief.\n<|user|>\nH");
	}
}
