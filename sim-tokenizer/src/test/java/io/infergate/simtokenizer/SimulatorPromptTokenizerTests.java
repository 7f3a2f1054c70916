package io.infergate.simtokenizer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The simulator's tokenization read back from the gateway's prompt text gives the simulator's own results: the token
 * ids its chat template and tokenizer produce, which its engine publishes in {@code BlockStored}.
 */
class SimulatorPromptTokenizerTests {

	private final SimulatorPromptTokenizer tokenizer = new SimulatorPromptTokenizer();

	@RepeatedTest(20)
	void chatPromptsTokenizeAsTheSimulatorDoes(org.junit.jupiter.api.RepetitionInfo repetition) {
		SplittableRandom random = new SplittableRandom(repetition.getCurrentRepetition());
		List<StandInChatTemplate.Message> messages = new ArrayList<>();
		StringBuilder gatewayText = new StringBuilder();
		for (int i = 0, count = 1 + random.nextInt(6); i < count; i++) {
			String role = List.of("system", "user", "assistant").get(random.nextInt(3));
			String content = text(random, random.nextInt(700));
			messages.add(new StandInChatTemplate.Message(role, content));
			gatewayText.append('\u001e').append(role).append('\u001f').append(content);
		}
		int[] expectedTokens = StandInTokenizer.encode(StandInChatTemplate.render(messages));
		assertTokens(gatewayText.toString(), expectedTokens);
	}

	@Test
	void completionPromptsTokenizeAsTheirText() {
		String prompt = text(new SplittableRandom(7), 1001);

		assertTokens(prompt, StandInTokenizer.encode(prompt));
	}

	@Test
	void tokenizingStopsWhenTheBufferIsFull() {
		String prompt = text(new SplittableRandom(8), 4000);
		int[] tokens = new int[10];

		int count = tokenizer.tokenize(prompt, tokens);

		assertThat(count).isEqualTo(10);
		assertThat(tokens).containsExactly(Arrays.copyOf(StandInTokenizer.encode(prompt), 10));
	}

	private void assertTokens(String promptText, int[] expectedTokens) {
		int[] tokens = new int[SimulatorPromptTokenizer.maxTokens(promptText)];
		assertThat(tokens.length).isGreaterThanOrEqualTo(expectedTokens.length);
		int count = tokenizer.tokenize(promptText, tokens);
		assertThat(Arrays.copyOf(tokens, count)).containsExactly(expectedTokens);
	}

	/** Text with some characters outside ASCII, so code units, not bytes, are what is hashed. */
	private static String text(SplittableRandom random, int length) {
		char[] chars = new char[length];
		for (int i = 0; i < length; i++) {
			int pick = random.nextInt(40);
			chars[i] = (pick < 26) ? (char) ('a' + pick) : (pick < 36) ? ' ' : (pick < 38) ? 'é' : '\u4e2d';
		}
		return new String(chars);
	}
}
