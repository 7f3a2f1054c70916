package io.infergate.simtokenizer;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StandInTokenizerTests {

	@Test
	void producesOneTokenPerFourCharactersRoundedUp() {
		assertThat(StandInTokenizer.encode("")).isEmpty();
		assertThat(StandInTokenizer.encode("abcd")).hasSize(1);
		assertThat(StandInTokenizer.encode("abcde")).hasSize(2);
		assertThat(StandInTokenizer.countTokens("abcdefghi")).isEqualTo(3);
	}

	@Test
	void tokenIdsAreAFixedHashStableAcrossRuns() {
		// FNV-1a of "abcd" over UTF-16 code units, masked to 31 bits: pinned so that ids never drift.
		assertThat(StandInTokenizer.encode("abcd")[0]).isEqualTo(0xce3479bd & 0x7fffffff);
		assertThat(StandInTokenizer.encode("abcdabcd")).containsExactly(StandInTokenizer.encode("abcd")[0],
				StandInTokenizer.encode("abcd")[0]);
	}

	@Test
	void textsSharingAPrefixShareTheTokensOfItsWholeChunks() {
		int[] first = StandInTokenizer.encode("The system prompt. Question one?");
		int[] second = StandInTokenizer.encode("The system prompt. Another question?");

		assertThat(Arrays.copyOf(first, 4)).containsExactly(Arrays.copyOf(second, 4));
		assertThat(first[5]).isNotEqualTo(second[5]);
	}

	@Test
	void chatTemplateGivesConversationsWithTheSameFirstMessagesTheSamePrefix() {
		String first = StandInChatTemplate.render(List.of(new StandInChatTemplate.Message("system", "Be brief."),
				new StandInChatTemplate.Message("user", "Hi")));
		String second = StandInChatTemplate.render(List.of(new StandInChatTemplate.Message("system", "Be brief."),
				new StandInChatTemplate.Message("user", "Hello")));

		assertThat(first).isEqualTo("<|system|>\nBe brief.\n<|user|>\nHi\n<|assistant|>\n");
		assertThat(second).startsWith("<|system|>\nBe brief.\n<|user|>\nH");
	}
}
