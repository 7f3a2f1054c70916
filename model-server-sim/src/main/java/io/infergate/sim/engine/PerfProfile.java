package io.infergate.sim.engine;

import java.util.List;
import java.util.Locale;

/**
 * Step-time model of one engine iteration: {@code stepMicros = beta0 + beta1·P + beta2·D}, where P is the number of
 * uncached prefill tokens computed in the step and D the number of sequences decoding in it.
 *
 * <p>The named fits are for Llama-3.1-8B under vLLM 0.8: on one H100 {@code 5753 + 17.25·P + 6.00·D}, on one
 * A100-80GB {@code 16442 + 47.84·P + 18.21·D}. {@code zero} makes every step free, for throughput tests of the
 * serving layer.
 *
 * @param name profile name as given on the command line
 * @param beta0Micros fixed cost of a step, µs
 * @param beta1MicrosPerToken cost per uncached prefill token, µs
 * @param beta2MicrosPerSeq cost per decoding sequence, µs
 */
public record PerfProfile(String name, double beta0Micros, double beta1MicrosPerToken, double beta2MicrosPerSeq) {

	public static final PerfProfile LLAMA_3_1_8B_H100 = new PerfProfile("llama-3.1-8b-h100", 5753, 17.25, 6.00);

	public static final PerfProfile LLAMA_3_1_8B_A100 = new PerfProfile("llama-3.1-8b-a100", 16442, 47.84, 18.21);

	public static final PerfProfile ZERO = new PerfProfile("zero", 0, 0, 0);

	private static final List<PerfProfile> NAMED = List.of(LLAMA_3_1_8B_H100, LLAMA_3_1_8B_A100, ZERO);

	public PerfProfile {
		if (beta0Micros < 0 || beta1MicrosPerToken < 0 || beta2MicrosPerSeq < 0) {
			throw new IllegalArgumentException("perf profile '" + name + "' has a negative coefficient");
		}
	}

	/** The named profile, or an error listing the valid names. */
	public static PerfProfile named(String name) {
		for (PerfProfile profile : NAMED) {
			if (profile.name.equals(name)) {
				return profile;
			}
		}
		throw new IllegalArgumentException("unknown perf profile '" + name + "' (valid: " + names() + ")");
	}

	public static String names() {
		return String.join(", ", NAMED.stream().map(PerfProfile::name).toList());
	}

	/** A copy with the given coefficients; a null keeps this profile's value. */
	public PerfProfile withCoefficients(Double beta0, Double beta1, Double beta2) {
		if (beta0 == null && beta1 == null && beta2 == null) {
			return this;
		}
		double b0 = (beta0 != null) ? beta0 : this.beta0Micros;
		double b1 = (beta1 != null) ? beta1 : this.beta1MicrosPerToken;
		double b2 = (beta2 != null) ? beta2 : this.beta2MicrosPerSeq;
		return new PerfProfile(String.format(Locale.ROOT, "custom(%s/%s/%s)", b0, b1, b2), b0, b1, b2);
	}

	/** {@code beta0 + beta1·prefillTokens + beta2·decodeSeqs}, rounded to whole microseconds. */
	public long stepMicros(int prefillTokens, int decodeSeqs) {
		return Math.round(beta0Micros + beta1MicrosPerToken * prefillTokens + beta2MicrosPerSeq * decodeSeqs);
	}
}
