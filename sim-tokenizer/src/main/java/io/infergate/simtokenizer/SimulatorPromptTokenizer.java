package io.infergate.simtokenizer;

import java.util.Arrays;

/**
 * {@code model-server-sim}'s stand-in tokenization ({@link StandInChatTemplate}, then {@link StandInTokenizer}),
 * reproduced from the gateway's prompt text: the same algorithm, pinned equal to those by
 * {@code SimulatorPromptTokenizerTests}.
 * <ul>
 * <li><b>Chat template:</b> a chat prompt, which the gateway writes as {@code \u001e role \u001f content} per message,
 * is rendered as the simulator renders it: {@code <|role|>\n content \n} per message, then
 * {@code <|assistant|>\n}. A prompt not starting with {@code \u001e} (a completion) is used as it is.</li>
 * <li><b>Tokenizer:</b> token i is FNV-1a (32-bit) over the UTF-16 code units of characters [4i, 4i + 4) of the
 * rendered text, its top bit cleared.</li>
 * </ul>
 * The rendered text is never built: characters stream into the running hash, and tokenizing stops once the output
 * is full. No allocation. A completion prompt given as token ids reaches the gateway as text, so it is tokenized as
 * text and matches nothing.
 */
public final class SimulatorPromptTokenizer {

	/** The name pools of simulated pods give it in {@code tokenizer.type}. */
	public static final String TYPE = "simulator";

	/** Starts a chat message in the gateway's prompt text; the role follows. */
	public static final char MESSAGE_SEPARATOR = '\u001e';

	/** Ends a chat message's role in the gateway's prompt text; the content follows. */
	public static final char ROLE_SEPARATOR = '\u001f';

	private static final int CHARS_PER_TOKEN = 4;

	private static final int FNV_OFFSET = 0x811c9dc5;

	private static final int FNV_PRIME = 0x01000193;

	private static final String GENERATION_PROMPT = "<|assistant|>\n";

	/** The most tokens {@code text} can have once rendered: a size for {@link #tokenize}'s output. */
	public static int maxTokens(String text) {
		// each message grows by 3 characters at most (RS role US → <|role|>\n … \n), and a message takes 2 at least
		long rendered = text.length() + 3L * (text.length() / 2 + 1) + GENERATION_PROMPT.length();
		return (int) Math.min(Integer.MAX_VALUE - 8, (rendered + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN);
	}

	/** All the token ids of the prompt {@code text} (the gateway's prompt text). Thread-safe. */
	public static int[] encode(String text) {
		if (text == null || text.isEmpty()) {
			return new int[0];
		}
		int[] tokens = new int[maxTokens(text)];
		int count = new SimulatorPromptTokenizer().tokenize(text, tokens);
		return (count == tokens.length) ? tokens : Arrays.copyOf(tokens, count);
	}

	/**
	 * Writes the first token ids of the prompt {@code text} (the gateway's prompt text) to {@code tokens}, at most
	 * {@code tokens.length} of them.
	 * @return how many were written
	 */
	public int tokenize(String text, int[] tokens) {
		Tokens out = new Tokens(tokens);
		if (text == null || text.isEmpty()) {
			return 0;
		}
		if (text.charAt(0) != MESSAGE_SEPARATOR || !renderChat(text, out)) {
			out.reset();
			out.put(text, 0, text.length());
		}
		return out.finish();
	}

	/** Streams the chat template's rendering of the messages; false if the text is not the gateway's chat form. */
	private static boolean renderChat(String text, Tokens out) {
		int length = text.length();
		int start = 0;
		while (start < length && !out.full()) {
			int roleEnd = text.indexOf(ROLE_SEPARATOR, start + 1);
			if (roleEnd < 0) {
				return false;
			}
			int next = text.indexOf(MESSAGE_SEPARATOR, roleEnd + 1);
			if (next < 0) {
				next = length;
			}
			out.put("<|", 0, 2);
			out.put(text, start + 1, roleEnd);
			out.put("|>\n", 0, 3);
			out.put(text, roleEnd + 1, next);
			out.put('\n');
			start = next;
		}
		out.put(GENERATION_PROMPT, 0, GENERATION_PROMPT.length());
		return true;
	}

	/**
	 * The token ids of a character stream, written as each group of 4 characters completes. Not thread-safe; one per
	 * call.
	 */
	private static final class Tokens {

		private final int[] tokens;

		private int count;

		private int hash = FNV_OFFSET;

		private int charsInToken;

		Tokens(int[] tokens) {
			this.tokens = tokens;
		}

		boolean full() {
			return count == tokens.length;
		}

		void reset() {
			count = 0;
			hash = FNV_OFFSET;
			charsInToken = 0;
		}

		void put(CharSequence text, int from, int to) {
			for (int i = from; i < to && count < tokens.length; i++) {
				put(text.charAt(i));
			}
		}

		void put(char c) {
			if (count == tokens.length) {
				return;
			}
			hash = (hash ^ c) * FNV_PRIME;
			if (++charsInToken == CHARS_PER_TOKEN) {
				tokens[count++] = hash & 0x7fffffff;
				hash = FNV_OFFSET;
				charsInToken = 0;
			}
		}

		/** Writes the last, partial token if there is room; returns the count. */
		int finish() {
			if (charsInToken > 0 && count < tokens.length) {
				tokens[count++] = hash & 0x7fffffff;
			}
			return count;
		}
	}
}
