package io.infergate.simtokenizer;

import java.util.List;

/**
 * Renders chat messages to one prompt text before tokenizing, so that conversations sharing their first
 * messages share a token prefix, as with a real chat template. Each message becomes
 * {@code <|role|>\n content \n}; the text ends with the generation prompt {@code <|assistant|>\n}.
 */
public final class StandInChatTemplate {

	private StandInChatTemplate() {
	}

	/** One chat message; {@code content} is its text, parts already joined. */
	public record Message(String role, String content) {
	}

	public static String render(List<Message> messages) {
		int length = 14;
		for (Message message : messages) {
			length += message.role().length() + message.content().length() + 5;
		}
		StringBuilder text = new StringBuilder(length);
		for (Message message : messages) {
			text.append("<|").append(message.role()).append("|>\n").append(message.content()).append('\n');
		}
		return text.append("<|assistant|>\n").toString();
	}
}
