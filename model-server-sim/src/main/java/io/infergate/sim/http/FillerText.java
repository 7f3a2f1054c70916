package io.infergate.sim.http;

/** Deterministic reply text: output token {@code i} is word {@code i mod n} of a fixed list. */
final class FillerText {

	private static final String[] WORDS = { " The", " quick", " brown", " fox", " jumps", " over", " the", " lazy",
			" dog", "." };

	private FillerText() {
	}

	static String token(int index) {
		return WORDS[index % WORDS.length];
	}

	static String of(int tokens) {
		StringBuilder text = new StringBuilder(tokens * 6);
		for (int i = 0; i < tokens; i++) {
			text.append(token(i));
		}
		return text.toString();
	}
}
