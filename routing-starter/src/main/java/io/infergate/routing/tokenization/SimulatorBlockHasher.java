package io.infergate.routing.tokenization;

/**
 * {@code model-server-sim}'s block hashing, the same algorithm as its {@code PrefixBlockHasher} (pinned equal by
 * {@code SimulatorTokenizationTests}):
 * <pre>
 * seed      = 0x5eed000000000001                      without an adapter
 *           = mix(FNV-1a-64(UTF-16 code units of the adapter name))   with one
 * h(−1)     = seed
 * h(i)      = mix(FNV-1a-64 over block i's token ids, starting from h(i−1) XOR the FNV offset)
 * </pre>
 * where {@code mix} is MurmurHash3's 64-bit finalizer. No allocation.
 */
public final class SimulatorBlockHasher implements EngineBlockHasher {

	private static final long FNV_OFFSET = 0xcbf29ce484222325L;

	private static final long FNV_PRIME = 0x100000001b3L;

	private static final long BASE_MODEL_SEED = 0x5eed_0000_0000_0001L;

	@Override
	public int hashFullBlocks(int[] tokens, int count, int blockSize, String adapter, long[] hashes) {
		int blocks = Math.min(count / blockSize, hashes.length);
		long parent = seed(adapter);
		for (int block = 0; block < blocks; block++) {
			long hash = parent ^ FNV_OFFSET;
			for (int i = block * blockSize, end = i + blockSize; i < end; i++) {
				hash = (hash ^ tokens[i]) * FNV_PRIME;
			}
			parent = mix(hash);
			hashes[block] = parent;
		}
		return blocks;
	}

	private static long seed(String adapter) {
		if (adapter == null || adapter.isEmpty()) {
			return BASE_MODEL_SEED;
		}
		long hash = FNV_OFFSET;
		for (int i = 0; i < adapter.length(); i++) {
			hash = (hash ^ adapter.charAt(i)) * FNV_PRIME;
		}
		return mix(hash);
	}

	private static long mix(long value) {
		value ^= value >>> 33;
		value *= 0xff51afd7ed558ccdL;
		value ^= value >>> 33;
		value *= 0xc4ceb9fe1a85ec53L;
		value ^= value >>> 33;
		return value;
	}
}
