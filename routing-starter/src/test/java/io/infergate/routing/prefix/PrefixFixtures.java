package io.infergate.routing.prefix;

import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.scheduling.Fixtures;

/** Prompts made of recognizable 64-character blocks, and requests carrying them. */
public final class PrefixFixtures {

	public static final int BLOCK = 64;

	public static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";

	private PrefixFixtures() {
	}

	/** Blocks {@code from..to−1} of the prompt family {@code label}: block i reads "label:i" padded to 64 chars. */
	public static String blocks(String label, int from, int to) {
		StringBuilder text = new StringBuilder((to - from) * BLOCK);
		for (int i = from; i < to; i++) {
			String head = label + ":" + i + " ";
			text.append(head);
			for (int c = head.length(); c < BLOCK; c++) {
				text.append((char) ('a' + (c * 7 + i) % 26));
			}
		}
		return text.toString();
	}

	/** A prompt of {@code count} full blocks of family {@code label}. */
	public static String prompt(String label, int count) {
		return blocks(label, 0, count);
	}

	/** A prompt whose first {@code shared} blocks are those of {@code label} and the rest, up to {@code count}, not. */
	public static String diverging(String label, int shared, int count) {
		return blocks(label, 0, shared) + blocks(label + "'", shared, count);
	}

	public static InferenceRequest request(String prompt) {
		return request(MODEL, null, prompt, null);
	}

	public static InferenceRequest request(String model, String adapter, String prompt, String sessionKey) {
		return new InferenceRequest("demo-llama", Fixtures.POOL, model, adapter, prompt,
				InferenceRequest.estimateTokens(prompt.length()), 64, false, sessionKey, 0);
	}
}
