package io.infergate.kvevents;

import java.util.Arrays;
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
 */
public record BlockStored(long[] blockHashes, Long parentBlockHash, int[] tokenIds, int blockSize, Integer loraId,
		String medium, String loraName, Integer groupIdx) implements KvCacheEvent {

	public static final String TAG = "BlockStored";

	public static final String MEDIUM_GPU = "GPU";

	public BlockStored {
		Objects.requireNonNull(blockHashes, "blockHashes");
		Objects.requireNonNull(tokenIds, "tokenIds");
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
				&& Objects.equals(groupIdx, that.groupIdx);
	}

	@Override
	public int hashCode() {
		return Objects.hash(Arrays.hashCode(blockHashes), parentBlockHash, Arrays.hashCode(tokenIds), blockSize,
				loraId, medium, loraName, groupIdx);
	}

	@Override
	public String toString() {
		return "BlockStored[blockHashes=" + Arrays.toString(blockHashes) + ", parentBlockHash=" + parentBlockHash
				+ ", tokenIds=" + tokenIds.length + " tokens, blockSize=" + blockSize + ", loraId=" + loraId
				+ ", medium=" + medium + ", loraName=" + loraName + ", groupIdx=" + groupIdx + "]";
	}
}
