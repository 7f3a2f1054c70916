package io.infergate.routing.openai;

/**
 * The prompt as one string, the form in which the scheduler hashes prefixes: each chat message as
 * {@code RS role US content}, a completion prompt as its text. The gateway's parser and the bench harness both
 * build it here, so the prefix index sees the same text in production and in replays.
 * <p>
 * Control characters that never occur in normal text keep different message boundaries from producing the same
 * string.
 */
public final class PromptText {

	/** Marks the start of a chat message. */
	public static final char MESSAGE_SEPARATOR = '\u001e';

	/** Separates a chat message's role from its content. */
	public static final char ROLE_SEPARATOR = '\u001f';

	private PromptText() {
	}

	/** Appends one chat message to {@code text}. */
	public static StringBuilder appendMessage(StringBuilder text, CharSequence role, CharSequence content) {
		return text.append(MESSAGE_SEPARATOR).append(role).append(ROLE_SEPARATOR).append(content);
	}

	/** The characters {@link #appendMessage} adds for one message, to size a builder. */
	public static int messageLength(CharSequence role, CharSequence content) {
		return 2 + role.length() + content.length();
	}
}
