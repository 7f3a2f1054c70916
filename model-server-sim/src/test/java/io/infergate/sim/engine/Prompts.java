package io.infergate.sim.engine;

import java.util.SplittableRandom;

/** Token arrays for engine tests. */
final class Prompts {

	private Prompts() {
	}

	/** {@code length} pseudo-random token ids, the same for the same seed. */
	static int[] tokens(int length, long seed) {
		SplittableRandom random = new SplittableRandom(seed);
		int[] tokens = new int[length];
		for (int i = 0; i < length; i++) {
			tokens[i] = random.nextInt(128_000);
		}
		return tokens;
	}

	static int[] concat(int[] first, int[] second) {
		int[] joined = new int[first.length + second.length];
		System.arraycopy(first, 0, joined, 0, first.length);
		System.arraycopy(second, 0, joined, first.length, second.length);
		return joined;
	}
}
