package io.infergate.routing.model;

import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ModelSuggestionsTests {

	private final List<String> known = List.of("gpt-4o-mini", "gpt-4o", "chat", "chat-large",
			"meta-llama/Llama-3.1-8B-Instruct", "summarize");

	@Test
	void suggestsNamesAFewEditsAwayFewestFirst() {
		assertThat(ModelSuggestions.closeTo("gpt-4o-mni", known)).containsExactly("gpt-4o-mini", "gpt-4o");
		assertThat(ModelSuggestions.closeTo("Sumarize", known)).containsExactly("summarize");
	}

	@Test
	void suggestsNamesThatContainWhatWasAsked() {
		assertThat(ModelSuggestions.closeTo("llama-3.1-8b", known)).containsExactly("meta-llama/Llama-3.1-8B-Instruct");
	}

	@Test
	void suggestsNothingForANameFarFromEveryKnownOne() {
		assertThat(ModelSuggestions.closeTo("claude", known)).isEmpty();
		assertThat(ModelSuggestions.closeTo("x".repeat(100_000), known)).isEmpty();
	}

	@Test
	void theBandedDistanceAgreesWithTheFullOneWithinItsLimit() {
		Random random = new Random(7);
		for (int trial = 0; trial < 5000; trial++) {
			String a = randomWord(random);
			String b = randomWord(random);
			int limit = 1 + random.nextInt(4);
			int full = fullDistance(a, b);

			assertThat(ModelSuggestions.distanceAtMost(a, b, limit)).as(a + " / " + b + " within " + limit)
				.isEqualTo(Math.min(full, limit + 1));
		}
	}

	private static String randomWord(Random random) {
		StringBuilder word = new StringBuilder();
		for (int i = random.nextInt(9); i > 0; i--) {
			word.append((char) ('a' + random.nextInt(3)));
		}
		return word.toString();
	}

	private static int fullDistance(String a, String b) {
		int[][] d = new int[a.length() + 1][b.length() + 1];
		for (int i = 0; i <= a.length(); i++) {
			d[i][0] = i;
		}
		for (int j = 0; j <= b.length(); j++) {
			d[0][j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			for (int j = 1; j <= b.length(); j++) {
				int substitution = d[i - 1][j - 1] + ((a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1);
				d[i][j] = Math.min(substitution, Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1));
			}
		}
		return d[a.length()][b.length()];
	}
}
