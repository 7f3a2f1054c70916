package io.infergate.sim.engine;

/**
 * Chained hashes of a prompt's full KV blocks, as vLLM's prefix caching computes them: block {@code i}'s hash
 * mixes its parent's hash with its own tokens, and the first block's parent is a seed derived from the LoRA
 * adapter, so different adapters never share cached blocks. A request's {@code cache_salt} is mixed into its first
 * block only (vLLM adds it to that block's extra keys), and reaches every later block through the chain. Only full
 * blocks are hashed.
 */
public final class PrefixBlockHasher {

	private static final long FNV_OFFSET = 0xcbf29ce484222325L;

	private static final long FNV_PRIME = 0x100000001b3L;

	private PrefixBlockHasher() {
	}

	/** Hashes of the {@code floor(tokens/blockSize)} full blocks of {@code tokens}. */
	public static long[] hashFullBlocks(int[] tokens, int blockSize, String adapter) {
		return hashFullBlocks(tokens, blockSize, adapter, null);
	}

	/** Hashes of the full blocks of {@code tokens} for a request with {@code cacheSalt} (or none). */
	public static long[] hashFullBlocks(int[] tokens, int blockSize, String adapter, String cacheSalt) {
		long[] hashes = new long[tokens.length / blockSize];
		long parent = seed(adapter);
		for (int block = 0; block < hashes.length; block++) {
			long hash = parent ^ FNV_OFFSET;
			if (block == 0 && cacheSalt != null) {
				hash = mix(fnv(hash, cacheSalt));
			}
			for (int i = block * blockSize, end = i + blockSize; i < end; i++) {
				hash = (hash ^ tokens[i]) * FNV_PRIME;
			}
			parent = mix(hash);
			hashes[block] = parent;
		}
		return hashes;
	}

	static long seed(String adapter) {
		if (adapter == null) {
			return 0x5eed_0000_0000_0001L;
		}
		return mix(fnv(FNV_OFFSET, adapter));
	}

	/** {@code hash} with FNV-1a steps over {@code text}'s chars. */
	private static long fnv(long hash, String text) {
		for (int i = 0; i < text.length(); i++) {
			hash = (hash ^ text.charAt(i)) * FNV_PRIME;
		}
		return hash;
	}

	/** MurmurHash3's 64-bit finalizer, so that chained FNV states spread over all bits. */
	private static long mix(long value) {
		value ^= value >>> 33;
		value *= 0xff51afd7ed558ccdL;
		value ^= value >>> 33;
		value *= 0xc4ceb9fe1a85ec53L;
		value ^= value >>> 33;
		return value;
	}
}
