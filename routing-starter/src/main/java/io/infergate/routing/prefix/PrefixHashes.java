package io.infergate.routing.prefix;

import java.util.Arrays;

/**
 * The chained block hashes of one prompt, as {@link PrefixHasher} computes them. Hash i stands for blocks 0..i
 * together with the target model and adapter, so two prompts share hash i exactly when they share all of that
 * (barring a 64-bit collision). Immutable.
 */
public final class PrefixHashes {

	/** A prompt without a full block. */
	public static final PrefixHashes NONE = new PrefixHashes(new long[0]);

	private final long[] hashes;

	/** Takes {@code hashes} as is, without a copy. */
	PrefixHashes(long[] hashes) {
		this.hashes = hashes;
	}

	/** Hashes computed elsewhere (benchmarks, tests); copied. A zero hash is not allowed: the index uses 0 as empty. */
	public static PrefixHashes of(long... hashes) {
		for (long hash : hashes) {
			if (hash == 0) {
				throw new IllegalArgumentException("a block hash must not be 0");
			}
		}
		return new PrefixHashes(hashes.clone());
	}

	/** Full blocks hashed, at most {@code max-blocks}. */
	public int blockCount() {
		return hashes.length;
	}

	/** The hash of block {@code block}, which covers blocks 0..block. */
	public long hash(int block) {
		return hashes[block];
	}

	@Override
	public String toString() {
		return "PrefixHashes" + Arrays.toString(hashes);
	}
}
