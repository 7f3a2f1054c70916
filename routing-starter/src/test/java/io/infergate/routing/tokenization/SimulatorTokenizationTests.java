package io.infergate.routing.tokenization;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

import io.infergate.routing.request.InferenceRequest;
import io.infergate.sim.engine.ChatTemplate;
import io.infergate.sim.engine.PrefixBlockHasher;
import io.infergate.sim.engine.Tokenizer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The router's copy of the simulator's tokenization and block hashing gives the simulator's own results: the token
 * ids its chat template and tokenizer produce and the block hashes its engine publishes.
 */
class SimulatorTokenizationTests {

	private final SimulatorPromptTokenizer tokenizer = new SimulatorPromptTokenizer();

	private final SimulatorBlockHasher hasher = new SimulatorBlockHasher();

	@RepeatedTest(20)
	void chatPromptsTokenizeAndHashAsTheSimulatorDoes(org.junit.jupiter.api.RepetitionInfo repetition) {
		SplittableRandom random = new SplittableRandom(repetition.getCurrentRepetition());
		List<ChatTemplate.Message> messages = new ArrayList<>();
		StringBuilder gatewayText = new StringBuilder();
		for (int i = 0, count = 1 + random.nextInt(6); i < count; i++) {
			String role = List.of("system", "user", "assistant").get(random.nextInt(3));
			String content = text(random, random.nextInt(700));
			messages.add(new ChatTemplate.Message(role, content));
			gatewayText.append('\u001e').append(role).append('\u001f').append(content);
		}
		String adapter = random.nextBoolean() ? null : "adapter-" + random.nextInt(3);
		int blockSize = List.of(1, 4, 16, 32).get(random.nextInt(4));

		int[] expectedTokens = Tokenizer.encode(ChatTemplate.render(messages));
		assertTokensAndHashes(gatewayText.toString(), adapter, blockSize, expectedTokens);
	}

	@Test
	void completionPromptsTokenizeAsTheirText() {
		String prompt = text(new SplittableRandom(7), 1001);

		assertTokensAndHashes(prompt, null, 16, Tokenizer.encode(prompt));
	}

	@Test
	void tokenizingStopsWhenTheBufferIsFull() {
		String prompt = text(new SplittableRandom(8), 4000);
		int[] tokens = new int[10];

		int count = tokenizer.tokenize(request(prompt, null), tokens);

		assertThat(count).isEqualTo(10);
		assertThat(tokens).containsExactly(Arrays.copyOf(Tokenizer.encode(prompt), 10));
	}

	@Test
	void hashingStopsWhenTheBufferIsFull() {
		int[] tokens = Tokenizer.encode(text(new SplittableRandom(9), 400));
		long[] hashes = new long[3];

		int blocks = hasher.hashFullBlocks(tokens, tokens.length, 16, null, hashes);

		assertThat(blocks).isEqualTo(3);
		assertThat(hashes).containsExactly(Arrays.copyOf(PrefixBlockHasher.hashFullBlocks(tokens, 16, null), 3));
	}

	private void assertTokensAndHashes(String promptText, String adapter, int blockSize, int[] expectedTokens) {
		int[] tokens = new int[expectedTokens.length + 8];
		int count = tokenizer.tokenize(request(promptText, adapter), tokens);
		assertThat(Arrays.copyOf(tokens, count)).containsExactly(expectedTokens);

		long[] expectedHashes = PrefixBlockHasher.hashFullBlocks(expectedTokens, blockSize, adapter);
		long[] hashes = new long[expectedHashes.length + 4];
		int blocks = hasher.hashFullBlocks(tokens, count, blockSize, adapter, hashes);
		assertThat(Arrays.copyOf(hashes, blocks)).containsExactly(expectedHashes);
	}

	private static InferenceRequest request(String promptText, String adapter) {
		return new InferenceRequest("m", "pool", "m", adapter, promptText, 1, 16, false, null, 0);
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
