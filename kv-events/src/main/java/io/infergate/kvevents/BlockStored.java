package io.infergate.kvevents;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Full blocks entered the engine's prefix cache, as one chain: {@code blockHashes[0]} extends
 * {@code parentBlockHash} (null when it is the prompt's first block) and each later hash extends the one before it.
 * {@code tokenIds} holds the blocks' tokens, {@code blockSize} per block.
 *
 * @param blockHashes the stored blocks' hashes, in chain order
 * @param parentBlockHash the hash of the block the first one extends, or null for a prompt's first block
 * @param tokenIds the tokens of the stored blocks, concatenated
 * @param blockSize tokens per block
 * @param loraId the LoRA adapter's numeric id, or null (deprecated in vLLM in favour of {@code loraName})
 * @param medium where the blocks live, {@value #MEDIUM_GPU} for the GPU cache, or null
 * @param loraName the LoRA adapter's name, or null for the base model
 * @param groupIdx the KV-cache group (hybrid models), or null
 * @param extraKeys what else vLLM hashed into each block besides its tokens and parent, one entry per block (null
 * for a block with none), or null when the event does not say (vLLM before {@code extra_keys}): each entry's values
 * in vLLM's order, the LoRA adapter's name, multimodal keys ({@code (identifier, offset)} pairs, read as lists), the
 * request's {@code cache_salt} (first block of a prompt only) and prompt-embedding digests; strings as
 * {@code String}, integers as {@code Long}, bytes as {@code byte[]} (compared by identity in {@link #equals}),
 * arrays as {@code List}
 */
public record BlockStored(long[] blockHashes, Long parentBlockHash, int[] tokenIds, int blockSize, Integer loraId,
		String medium, String loraName, Integer groupIdx, List<List<Object>> extraKeys) implements KvCacheEvent {

	public static final String TAG = "BlockStored";

	public static final String MEDIUM_GPU = "GPU";

	public BlockStored {
		Objects.requireNonNull(blockHashes, "blockHashes");
		Objects.requireNonNull(tokenIds, "tokenIds");
	}

	/** Blocks whose event carries no {@code extra_keys}. */
	public BlockStored(long[] blockHashes, Long parentBlockHash, int[] tokenIds, int blockSize, Integer loraId,
			String medium, String loraName, Integer groupIdx) {
		this(blockHashes, parentBlockHash, tokenIds, blockSize, loraId, medium, loraName, groupIdx, null);
	}

	/**
	 * The {@code cache_salt} of the request whose prompt these blocks start, or null: vLLM puts the salt in the
	 * extra keys of a prompt's first block only (after the adapter's name and any multimodal keys, which are pairs),
	 * and every later block inherits it through its parent's hash. Null when the chain extends a parent block, when
	 * the event carries no extra keys, or when the first block has no string key besides the adapter's name.
	 */
	public String cacheSalt() {
		if (parentBlockHash != null || extraKeys == null || extraKeys.isEmpty() || extraKeys.get(0) == null) {
			return null;
		}
		List<Object> first = extraKeys.get(0);
		int from = (loraName != null && !first.isEmpty() && loraName.equals(first.get(0))) ? 1 : 0;
		for (int i = from; i < first.size(); i++) {
			if (first.get(i) instanceof String salt) {
				return salt;
			}
		}
		return null;
	}

	@Override
	public String tag() {
		return TAG;
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof BlockStored that && Arrays.equals(blockHashes, that.blockHashes)
				&& Objects.equals(parentBlockHash, that.parentBlockHash) && Arrays.equals(tokenIds, that.tokenIds)
				&& blockSize == that.blockSize && Objects.equals(loraId, that.loraId)
				&& Objects.equals(medium, that.medium) && Objects.equals(loraName, that.loraName)
				&& Objects.equals(groupIdx, that.groupIdx) && Objects.equals(extraKeys, that.extraKeys);
	}

	@Override
	public int hashCode() {
		return Objects.hash(Arrays.hashCode(blockHashes), parentBlockHash, Arrays.hashCode(tokenIds), blockSize,
				loraId, medium, loraName, groupIdx, extraKeys);
	}

	@Override
	public String toString() {
		return "BlockStored[blockHashes=" + Arrays.toString(blockHashes) + ", parentBlockHash=" + parentBlockHash
				+ ", tokenIds=" + tokenIds.length + " tokens, blockSize=" + blockSize + ", loraId=" + loraId
				+ ", medium=" + medium + ", loraName=" + loraName + ", groupIdx=" + groupIdx + ", extraKeys=" + extraKeys
				+ "]";
	}
}
