package io.infergate.tokenizers;

/** UTF-16 repairs before text crosses into native code. */
final class Utf16 {

	private static final char REPLACEMENT = '\uFFFD';

	private Utf16() {
	}

	/** {@code text} with every lone surrogate replaced by U+FFFD; the same instance when it has none. */
	static String withoutLoneSurrogates(String text) {
		int length = text.length();
		for (int i = 0; i < length; i++) {
			char c = text.charAt(i);
			if (Character.isSurrogate(c)) {
				if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1))) {
					i++;
				}
				else {
					return repair(text, i);
				}
			}
		}
		return text;
	}

	private static String repair(String text, int from) {
		StringBuilder repaired = new StringBuilder(text.length()).append(text, 0, from);
		int length = text.length();
		for (int i = from; i < length; i++) {
			char c = text.charAt(i);
			if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1))) {
				repaired.append(c).append(text.charAt(++i));
			}
			else {
				repaired.append(Character.isSurrogate(c) ? REPLACEMENT : c);
			}
		}
		return repaired.toString();
	}
}
