package io.infergate.routing.prefix;

/**
 * The gateway's own key for each full block of a token sequence, computed from the block's token ids and its
 * parent's key, the way the KV-cache manager of llm-d keys blocks: the engine's block hashes never need reproducing.
 * Both sides use it: the KV-event index on the token ids an engine's {@code BlockStored} carries, the scorer on a
 * prompt's token ids from the model's tokenizer.
 * <pre>
 * key(−1) = seed                                         base model
 *         = mix(seed XOR FNV-1a-64(the adapter's name))  a LoRA adapter (its blocks never match the base model's)
 *         then, with a cache_salt, mix(that XOR rotl(FNV-1a-64(salt), 31) XOR K2)
 * key(i)  = mix(key(i−1), block i's token ids)           each token folded in with a multiply-rotate step
 * </pre>
 * A request's {@code cache_salt} enters only the chain's root, as vLLM adds it to the extra keys of a prompt's first
 * block only: every later key inherits it through its parent, so salted blocks match only requests with the same
 * salt.
 * {@code mix} ends with MurmurHash3's 64-bit finalizer. A key is never 0 (0 marks an empty slot in the index's
 * table). No allocation.
 */
public final class TokenBlockKeys {

	private static final long SEED = 0x1b873593_cc9e2d51L;

	private static final long FNV_OFFSET = 0xcbf29ce484222325L;

	private static final long FNV_PRIME = 0x100000001b3L;

	private static final long K1 = 0x9e3779b97f4a7c15L;

	private static final long K2 = 0xc2b2ae3d27d4eb4fL;

	private TokenBlockKeys() {
	}

	/** The key a chain starts from: the base model's, or {@code adapter}'s. */
	public static long root(String adapter) {
		return (adapter == null || adapter.isEmpty()) ? SEED : finalizer(SEED ^ fnv(adapter));
	}

	/** The key a chain starts from for {@code adapter} (or the base model) and a {@code cache_salt} (or none). */
	public static long root(String adapter, String salt) {
		long root = root(adapter);
		return (salt == null || salt.isEmpty()) ? root : finalizer(root ^ Long.rotateLeft(fnv(salt), 31) ^ K2);
	}

	private static long fnv(String text) {
		long hash = FNV_OFFSET;
		for (int i = 0; i < text.length(); i++) {
			hash = (hash ^ text.charAt(i)) * FNV_PRIME;
		}
		return hash;
	}

	/** The key of the block {@code tokens[from, from + blockSize)} whose parent's key is {@code parent}. */
	public static long next(long parent, int[] tokens, int from, int blockSize) {
		long hash = parent ^ (blockSize * K2);
		for (int i = from, end = from + blockSize; i < end; i++) {
			hash = Long.rotateLeft(hash ^ ((tokens[i] & 0xffffffffL) * K1), 27) * K2 + 0x52dce729;
		}
		long key = finalizer(hash);
		return (key != 0) ? key : 1;
	}

	/**
	 * Writes the keys of the full blocks of {@code tokens[0, count)} to {@code keys}, at most {@code keys.length}.
	 *
	 * @return how many were written
	 */
	public static int keys(int[] tokens, int count, int blockSize, String adapter, long[] keys) {
		return keys(tokens, count, blockSize, adapter, null, keys);
	}

	/**
	 * Writes the keys of the full blocks of {@code tokens[0, count)} under {@code adapter} and {@code salt} to
	 * {@code keys}, at most {@code keys.length}.
	 *
	 * @return how many were written
	 */
	public static int keys(int[] tokens, int count, int blockSize, String adapter, String salt, long[] keys) {
		int blocks = Math.min(count / blockSize, keys.length);
		long parent = root(adapter, salt);
		for (int block = 0; block < blocks; block++) {
			parent = next(parent, tokens, block * blockSize, blockSize);
			keys[block] = parent;
		}
		return blocks;
	}

	private static long finalizer(long value) {
		value ^= value >>> 33;
		value *= 0xff51afd7ed558ccdL;
		value ^= value >>> 33;
		value *= 0xc4ceb9fe1a85ec53L;
		value ^= value >>> 33;
		return value;
	}
}
