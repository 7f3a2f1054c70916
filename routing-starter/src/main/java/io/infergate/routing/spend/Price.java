package io.infergate.routing.spend;

import jakarta.validation.constraints.PositiveOrZero;

import io.infergate.routing.limits.TokenUsage;

/**
 * What a model's tokens cost, per million tokens, in {@code infergate.usage.currency}: {@code input} for prompt tokens
 * the engine computed, {@code cached-input} for prompt tokens it took from its prefix cache (as the model server's
 * {@code usage} reports them; unset: the input price), {@code output} for completion tokens. A price not given is 0.
 * Self-hosted models cost GPU time, so operators derive these from what their GPUs cost and serve.
 *
 * @param input Price of one million uncached prompt tokens.
 * @param cachedInput Price of one million prompt tokens served from the engine's prefix cache; unset: the input price.
 * @param output Price of one million completion tokens.
 */
public record Price(@PositiveOrZero Double input, @PositiveOrZero Double cachedInput, @PositiveOrZero Double output) {

	private static final double PER_TOKEN = 1e-6;

	/** The cost of {@code usage}; 0 when it is null. */
	public double cost(TokenUsage usage) {
		return (usage != null) ? cost(usage.inputTokens(), usage.cachedInputTokens(), usage.outputTokens()) : 0;
	}

	/**
	 * The cost of one request's tokens: {@code inputTokens} of which {@code cachedInputTokens} came from the cache,
	 * and {@code outputTokens}.
	 */
	public double cost(long inputTokens, long cachedInputTokens, long outputTokens) {
		double inputPrice = orZero(input);
		double cachedPrice = (cachedInput != null) ? cachedInput : inputPrice;
		long cached = Math.max(0, Math.min(cachedInputTokens, inputTokens));
		return ((inputTokens - cached) * inputPrice + cached * cachedPrice + outputTokens * orZero(output)) * PER_TOKEN;
	}

	private static double orZero(Double value) {
		return (value != null) ? value : 0;
	}
}
