package io.infergate.sim.engine;

import java.util.List;
import java.util.Map;

import io.infergate.simtokenizer.StandInChatTemplate;

/** The prompt {@link ChatPrompt#of} makes: messages only, with the defaults of a chat completion request. */
record ConversationPrompt(List<StandInChatTemplate.Message> messages, List<?> jsonMessages) implements ChatPrompt {

	@Override
	public List<?> tools() {
		return null;
	}

	@Override
	public Map<String, ?> templateArguments() {
		return Map.of();
	}

	@Override
	public boolean addGenerationPrompt() {
		return true;
	}

	@Override
	public boolean addSpecialTokens() {
		return false;
	}
}
