package io.infergate.routing.prefix;

import java.net.URI;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.infergate.kvevents.AllBlocksCleared;
import io.infergate.kvevents.BlockRemoved;
import io.infergate.kvevents.BlockStored;
import io.infergate.kvevents.KvEventBatch;
import io.infergate.routing.endpoint.Endpoint;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Engines name blocks by hashes of their own; the index keys them by their token ids. Here block {@code n} of a
 * chain holds 16 tokens of id {@code n} and the engine calls it {@code n}, so {@code keys(n, …)} are the keys a
 * prompt of those blocks has.
 */
class EngineBlockIndexTests {

	private final EngineBlockIndex index = new EngineBlockIndex(new EngineBlockIndexProperties(256, 4));

	private final Endpoint a = endpoint(1);

	private final Endpoint b = endpoint(2);

	private static Endpoint endpoint(int port) {
		return new Endpoint("pool", URI.create("http://10.0.0.9:" + port));
	}

	/** A chain from the root: blocks {@code labels}, named so by the engine. */
	private static BlockStored stored(long... labels) {
		return new BlockStored(labels, null, tokens(labels), 16, null, "GPU", null, null);
	}

	/** The keys of a prompt made of the blocks {@code labels}. */
	private static long[] keys(long... labels) {
		long[] keys = new long[labels.length];
		TokenBlockKeys.keys(tokens(labels), labels.length * 16, 16, null, keys);
		return keys;
	}

	private static int[] tokens(long... labels) {
		int[] tokens = new int[labels.length * 16];
		for (int i = 0; i < tokens.length; i++) {
			tokens[i] = (int) labels[i / 16];
		}
		return tokens;
	}

	@Test
	void aSaltedChainIsKeyedUnderItsSaltAndItsLaterBlocksInheritIt() {
		index.apply(a.id(), new BlockStored(new long[] { 21 }, null, tokens(21), 16, null, "GPU", null, null,
				List.of(List.of("tenant-a"))));
		index.apply(a.id(), new BlockStored(new long[] { 22 }, 21L, tokens(22), 16, null, "GPU", null, null));
		long[] salted = new long[2];
		TokenBlockKeys.keys(tokens(21, 22), 32, 16, null, "tenant-a", salted);
		long[] otherSalt = new long[2];
		TokenBlockKeys.keys(tokens(21, 22), 32, 16, null, "tenant-b", otherSalt);

		assertThat(index.matchedBlocks(salted, 2, List.of(a))).containsExactly(2);
		assertThat(index.matchedBlocks(keys(21, 22), 2, List.of(a))).containsExactly(0);
		assertThat(index.matchedBlocks(otherSalt, 2, List.of(a))).containsExactly(0);
	}

	@Test
	void matchIsTheLeadingRunOfEachCandidateWhateverItHoldsBeyond() {
		index.apply(a.id(), new KvEventBatch(0, List.of(stored(11, 12, 13)), 0));
		index.apply(b.id(), new KvEventBatch(0, List.of(stored(11, 13)), 0));

		int[] matched = index.matchedBlocks(keys(11, 12, 13, 14), 4, List.of(a, b, endpoint(3)));

		assertThat(matched).containsExactly(3, 1, 0);
	}

	@Test
	void aFullMatchCountsEveryBlock() {
		index.apply(a.id(), stored(1, 2));

		assertThat(index.matchedBlocks(keys(1, 2, 3), 2, List.of(a))).containsExactly(2);
	}

	@Test
	void removalAndClearForgetBlocks() {
		index.apply(a.id(), stored(1, 2, 3));
		index.apply(b.id(), stored(1, 2, 3));

		index.apply(a.id(), new BlockRemoved(new long[] { 2, 99 }, "GPU", null));
		index.apply(b.id(), AllBlocksCleared.INSTANCE);

		assertThat(index.matchedBlocks(keys(1, 2, 3), 3, List.of(a, b))).containsExactly(1, 0);
		assertThat(index.blocks(a.id())).isEqualTo(2);
		assertThat(index.blockSize(b.id())).as("kept across a clear").isEqualTo(16);
		EngineBlockIndexStats stats = index.stats();
		assertThat(stats.storedBlocks()).isEqualTo(6);
		assertThat(stats.removedBlocks()).isEqualTo(1);
		assertThat(stats.clears()).isEqualTo(1);
		assertThat(stats.blocksPerEndpoint()).containsEntry(a.id().toString(), 2).containsEntry(b.id().toString(), 0);
	}

	@Test
	void removingBlocksInAnyOrderKeepsTheRestFindable() {
		index.apply(a.id(), stored(5, 6, 7, 8));

		index.apply(a.id(), new BlockRemoved(new long[] { 6 }, "GPU", null));
		index.apply(a.id(), new BlockRemoved(new long[] { 5 }, "GPU", null));
		index.apply(a.id(), stored(9));

		long[] chain = keys(5, 6, 7, 8);
		assertThat(index.matchedBlocks(new long[] { chain[2], chain[3] }, 2, List.of(a))).containsExactly(2);
		assertThat(index.matchedBlocks(keys(9), 1, List.of(a))).containsExactly(1);
		assertThat(index.matchedBlocks(keys(5), 1, List.of(a))).containsExactly(0);
		assertThat(index.blocks(a.id())).isEqualTo(3);
	}

	@Test
	void pastTheCapacityTheLeastRecentlyStoredGoFirst() {
		index.apply(a.id(), stored(1, 2, 3));
		index.apply(a.id(), stored(4, 5));

		assertThat(index.blocks(a.id())).isEqualTo(4);
		assertThat(index.matchedBlocks(keys(4, 5), 2, List.of(a))).containsExactly(2);
		assertThat(index.stats().evictedBlocks()).isEqualTo(1);
	}

	@Test
	void anEngineHashOfZeroIsMappedLikeAnyOther() {
		index.apply(a.id(), stored(0, 7));
		assertThat(index.matchedBlocks(keys(0, 7), 2, List.of(a))).containsExactly(2);

		index.apply(a.id(), new BlockRemoved(new long[] { 0 }, "GPU", null));

		assertThat(index.matchedBlocks(keys(0, 7), 2, List.of(a))).containsExactly(0);
		assertThat(index.blocks(a.id())).isEqualTo(1);
	}

	@Test
	void aChainContinuedInALaterEventIsKeyedFromItsParent() {
		index.apply(a.id(), stored(1, 2));
		index.apply(a.id(), new BlockStored(new long[] { 3 }, 2L, tokens(3), 16, null, "GPU", null, null));
		index.apply(b.id(), new BlockStored(new long[] { 3 }, 2L, tokens(3), 16, null, "GPU", null, null));

		assertThat(index.matchedBlocks(keys(1, 2, 3), 3, List.of(a, b))).containsExactly(3, 0);
		assertThat(index.blocks(b.id())).as("its parent was never seen").isZero();
	}

	@Test
	void anEventWithFewerTokensThanItsBlocksIsIgnored() {
		index.apply(a.id(), new BlockStored(new long[] { 1, 2 }, null, new int[20], 16, null, "GPU", null, null));

		assertThat(index.blocks(a.id())).isZero();
	}

	@Test
	void aPurgedEndpointIsForgotten() {
		index.apply(a.id(), stored(1));

		index.purge(a.id());

		assertThat(index.matchedBlocks(keys(1), 1, List.of(a))).containsExactly(0);
		assertThat(index.blockSize(a.id())).isZero();
		assertThat(index.stats().entries()).isZero();
	}
}
