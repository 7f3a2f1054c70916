package io.infergate.simtokenizer;

/**
 * Deterministic stand-in for a real tokenizer: token {@code i} is a fixed hash of characters
 * {@code [4i, 4i+4)}, so a text of {@code n} characters has {@code ceil(n/4)} tokens and two texts sharing a
 * prefix of {@code k} characters share their first {@code floor(k/4)} tokens. The hash (FNV-1a over UTF-16
 * code units) is stable across runs and JVMs.
 */
public final class StandInTokenizer {

	public static final int CHARS_PER_TOKEN = 4;

	private StandInTokenizer() {
	}

	public static int[] encode(CharSequence text) {
		int length = text.length();
		int[] tokens = new int[(length + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN];
		for (int i = 0; i < tokens.length; i++) {
			int start = i * CHARS_PER_TOKEN;
			int end = Math.min(start + CHARS_PER_TOKEN, length);
			int hash = 0x811c9dc5;
			for (int c = start; c < end; c++) {
				hash = (hash ^ text.charAt(c)) * 0x01000193;
			}
			// Token ids are non-negative, as vocabulary indices are.
			tokens[i] = hash & 0x7fffffff;
		}
		return tokens;
	}

	public static int countTokens(CharSequence text) {
		return (text.length() + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN;
	}
}
