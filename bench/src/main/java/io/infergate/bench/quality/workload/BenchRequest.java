package io.infergate.bench.quality.workload;

import java.util.List;

import io.infergate.routing.openai.PromptText;
import io.infergate.simtokenizer.StandInChatTemplate;
import io.infergate.simtokenizer.StandInTokenizer;

/**
 * One generated chat request.
 *
 * @param sessionKey the conversation's id for multi-turn workloads (sent as the session key), else null
 * @param adapter the LoRA adapter, or null for the base model
 * @param messages the chat messages, oldest first
 * @param outputTokens the tokens to generate ({@code max_tokens}; the simulator generates exactly this many)
 */
public record BenchRequest(String sessionKey, String adapter, List<StandInChatTemplate.Message> messages,
		int outputTokens) {

	/**
	 * The prompt text the gateway derives from these messages for the scheduler, built by the gateway's own
	 * {@link PromptText}, so the prefix index sees what it sees in production.
	 */
	public String gatewayPromptText() {
		int length = 0;
		for (StandInChatTemplate.Message message : messages) {
			length += PromptText.messageLength(message.role(), message.content());
		}
		StringBuilder text = new StringBuilder(length);
		for (StandInChatTemplate.Message message : messages) {
			PromptText.appendMessage(text, message.role(), message.content());
		}
		return text.toString();
	}

	/** The prompt tokens the model server computes: the chat template's rendering, tokenized. */
	public int[] engineTokens() {
		return StandInTokenizer.encode(StandInChatTemplate.render(messages));
	}
}
