package io.infergate.bench.quality.workload;

import java.util.List;

import io.infergate.sim.engine.ChatTemplate;
import io.infergate.sim.engine.Tokenizer;

/**
 * One generated chat request.
 *
 * @param sessionKey the conversation's id for multi-turn workloads (sent as the session key), else null
 * @param adapter the LoRA adapter, or null for the base model
 * @param messages the chat messages, oldest first
 * @param outputTokens the tokens to generate ({@code max_tokens}; the simulator generates exactly this many)
 */
public record BenchRequest(String sessionKey, String adapter, List<ChatTemplate.Message> messages,
		int outputTokens) {

	/** Separators the gateway puts around each message when it builds the prompt text for prefix hashing. */
	static final char MESSAGE_SEPARATOR = '\u001e';

	static final char ROLE_SEPARATOR = '\u001f';

	/**
	 * The prompt text the gateway derives from these messages for the scheduler: each message as
	 * {@code \u001e role \u001f content}, so the prefix index sees what it sees in production.
	 */
	public String gatewayPromptText() {
		int length = 0;
		for (ChatTemplate.Message message : messages) {
			length += 2 + message.role().length() + message.content().length();
		}
		StringBuilder text = new StringBuilder(length);
		for (ChatTemplate.Message message : messages) {
			text.append(MESSAGE_SEPARATOR).append(message.role()).append(ROLE_SEPARATOR).append(message.content());
		}
		return text.toString();
	}

	/** The prompt tokens the model server computes: the chat template's rendering, tokenized. */
	public int[] engineTokens() {
		return Tokenizer.encode(ChatTemplate.render(messages));
	}
}
