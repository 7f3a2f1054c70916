package io.infergate.routing.prefix;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;

/**
 * Cuts a prompt into blocks of {@code blockSizeChars} characters and hashes them as a chain (GIE proposal 0602, llm-d
 * prefix plugin):
 * <pre>
 * h(−1) = XXH3(XXH3(targetModel), XXH3(adapter))
 * h(i)  = XXH3(h(i−1), XXH3(chars of block i))       for i = 0 .. min(length / blockSizeChars, maxBlocks) − 1
 * </pre>
 * XXH3 is hash4j's 64-bit XXH3 with the default seed; {@code XXH3(a, b)} of two longs is its
 * {@code hashLongLongToLong}. A block's content is hashed over its UTF-16 chars in place, through a window on the
 * prompt, so hashing allocates nothing per block. A {@code null} model or adapter hashes as the empty string, so no
 * adapter and an empty adapter are the same.
 * <p>
 * Only full blocks are hashed: a trailing partial block is ignored, as GIE and vLLM do, because an engine caches only
 * full blocks. A prompt shorter than one block has no hash and can never match.
 * <p>
 * Because h(i) folds in h(i−1), equal hashes at block i imply equal blocks 0..i, equal model and equal adapter. A hash
 * that would be 0 is replaced by 1 (0 marks an empty slot in the index).
 */
public final class PrefixHasher {

	private static final Hasher64 XXH3 = Hashing.xxh3_64();

	private final int blockSizeChars;

	private final int maxBlocks;

	public PrefixHasher(int blockSizeChars, int maxBlocks) {
		if (blockSizeChars < 1 || maxBlocks < 1) {
			throw new IllegalArgumentException(
					"block size and max blocks must be positive, got " + blockSizeChars + " and " + maxBlocks);
		}
		this.blockSizeChars = blockSizeChars;
		this.maxBlocks = maxBlocks;
	}

	public int blockSizeChars() {
		return blockSizeChars;
	}

	public int maxBlocks() {
		return maxBlocks;
	}

	/** The chained hashes of the prompt's full blocks, up to {@code maxBlocks}. */
	public PrefixHashes hash(String targetModel, String adapter, CharSequence prompt) {
		int blocks = (prompt == null) ? 0 : Math.min(prompt.length() / blockSizeChars, maxBlocks);
		if (blocks == 0) {
			return PrefixHashes.NONE;
		}
		long[] hashes = new long[blocks];
		CharRegion block = new CharRegion(prompt);
		long parent = seed(targetModel, adapter);
		for (int i = 0, start = 0; i < blocks; i++, start += blockSizeChars) {
			long content = XXH3.hashCharsToLong(block.select(start, blockSizeChars));
			parent = nonZero(XXH3.hashLongLongToLong(parent, content));
			hashes[i] = parent;
		}
		return new PrefixHashes(hashes);
	}

	/** h(−1): what block 0 chains from, so different models or adapters never share a block. */
	public static long seed(String targetModel, String adapter) {
		return XXH3.hashLongLongToLong(XXH3.hashCharsToLong(emptyIfNull(targetModel)),
				XXH3.hashCharsToLong(emptyIfNull(adapter)));
	}

	private static String emptyIfNull(String value) {
		return (value != null) ? value : "";
	}

	private static long nonZero(long hash) {
		return (hash != 0) ? hash : 1;
	}
}
