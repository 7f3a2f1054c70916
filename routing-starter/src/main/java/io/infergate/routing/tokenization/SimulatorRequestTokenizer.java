package io.infergate.routing.tokenization;

import io.infergate.routing.openai.ParsedRequest;
import io.infergate.routing.openai.PromptTokens;

/**
 * {@code model-server-sim}'s own tokenization (without {@code --tokenizer}), reproduced from the gateway's prompt
 * text by {@link SimulatorPromptTokenizer}: {@code tokenizer.type: simulator}, for pools of simulated pods (demo mode,
 * the bench), so that every shipped profile, {@code precise} included, runs against them. Counts generation
 * prompts; other inputs keep the estimate.
 */
public final class SimulatorRequestTokenizer implements RequestTokenizer {

	/** The type's name in {@code tokenizer.type}. */
	public static final String TYPE = "simulator";

	private final SimulatorPromptTokenizer tokenizer = new SimulatorPromptTokenizer();

	@Override
	public PromptTokens tokenize(ParsedRequest parsed) {
		String text = parsed.promptText();
		if (text == null || text.isEmpty()) {
			return null;
		}
		int[] tokens = new int[SimulatorPromptTokenizer.maxTokens(text)];
		int count = tokenizer.tokenize(text, tokens);
		return new PromptTokens((count == tokens.length) ? tokens : java.util.Arrays.copyOf(tokens, count), count);
	}

	@Override
	public String describe() {
		return TYPE;
	}
}
