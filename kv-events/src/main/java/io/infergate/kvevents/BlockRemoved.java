package io.infergate.kvevents;

import java.util.Arrays;
import java.util.Objects;

/**
 * Blocks left the engine's prefix cache (evicted to make room, or dropped).
 *
 * @param blockHashes the removed blocks' hashes
 * @param medium where they lived, {@value BlockStored#MEDIUM_GPU} for the GPU cache, or null
 * @param groupIdx the KV-cache group (hybrid models), or null
 */
public record BlockRemoved(long[] blockHashes, String medium, Integer groupIdx) implements KvCacheEvent {

	public static final String TAG = "BlockRemoved";

	public BlockRemoved {
		Objects.requireNonNull(blockHashes, "blockHashes");
	}

	@Override
	public String tag() {
		return TAG;
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof BlockRemoved that && Arrays.equals(blockHashes, that.blockHashes)
				&& Objects.equals(medium, that.medium) && Objects.equals(groupIdx, that.groupIdx);
	}

	@Override
	public int hashCode() {
		return Objects.hash(Arrays.hashCode(blockHashes), medium, groupIdx);
	}

	@Override
	public String toString() {
		return "BlockRemoved[blockHashes=" + Arrays.toString(blockHashes) + ", medium=" + medium + ", groupIdx="
				+ groupIdx + "]";
	}
}
