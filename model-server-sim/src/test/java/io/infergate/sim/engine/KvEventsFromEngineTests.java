package io.infergate.sim.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import io.infergate.kvevents.AllBlocksCleared;
import io.infergate.kvevents.BlockRemoved;
import io.infergate.kvevents.BlockStored;
import io.infergate.kvevents.KvCacheEvent;
import io.infergate.kvevents.KvEventBatch;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The engine's KV-cache events follow its real block lifecycle: stored when cached, removed when evicted. */
class KvEventsFromEngineTests {

	private static final PerfProfile ROUND_PROFILE = new PerfProfile("round", 1000, 10, 100);

	private final List<KvEventBatch> batches = new ArrayList<>();

	private VirtualTimeEngine engine(int kvBlocks) {
		EngineConfig config = EngineConfig.builder()
			.perfProfile(ROUND_PROFILE)
			.blockSize(16)
			.numKvBlocks(kvBlocks)
			.loraModules(List.of("sql"))
			.build();
		return new VirtualTimeEngine(config, EngineEventListener.NONE, 1000.0, this.batches::add);
	}

	private List<KvCacheEvent> events() {
		return this.batches.stream().flatMap((batch) -> batch.events().stream()).toList();
	}

	@Test
	void aComputedPromptStoresItsFullBlocksAsOneChain() {
		VirtualTimeEngine engine = engine(100);
		int[] prompt = Prompts.tokens(100, 1);

		engine.submit(0, new EngineRequest(prompt, null, 1));
		engine.runUntilIdle();

		long[] hashes = PrefixBlockHasher.hashFullBlocks(prompt, 16, null);
		assertThat(events()).containsExactly(new BlockStored(hashes, null, Arrays.copyOf(prompt, 96), 16, null,
				"GPU", null, null));
		assertThat(this.batches.get(0).ts()).isEqualTo(1000.0 + (1000 + 10 * 100) / 1e6);
		assertThat(this.batches.get(0).dataParallelRank()).isZero();
	}

	@Test
	void chunkedPrefillStoresEachStepsNewBlocksWithTheirParent() {
		EngineConfig config = EngineConfig.builder().perfProfile(ROUND_PROFILE).blockSize(16).numKvBlocks(100)
			.maxNumBatchedTokens(40).build();
		VirtualTimeEngine engine = new VirtualTimeEngine(config, EngineEventListener.NONE, 0, this.batches::add);
		int[] prompt = Prompts.tokens(64, 2);

		engine.submit(0, new EngineRequest(prompt, null, 1));
		engine.runUntilIdle();

		long[] hashes = PrefixBlockHasher.hashFullBlocks(prompt, 16, null);
		// steps compute tokens [0,40), [40,64): blocks 0-1 first, then blocks 2-3 chained from block 1
		assertThat(events()).containsExactly(
				new BlockStored(Arrays.copyOfRange(hashes, 0, 2), null, Arrays.copyOfRange(prompt, 0, 32), 16, null,
						"GPU", null, null),
				new BlockStored(Arrays.copyOfRange(hashes, 2, 4), hashes[1], Arrays.copyOfRange(prompt, 32, 64), 16,
						null, "GPU", null, null));
	}

	@Test
	void aHitStoresNothingAndAnAdapterNamesItself() {
		VirtualTimeEngine engine = engine(100);
		int[] prompt = Prompts.tokens(40, 3);
		engine.submit(0, new EngineRequest(prompt, "sql", 1));
		long done = engine.runUntilIdle();
		this.batches.clear();

		engine.submit(done, new EngineRequest(prompt, "sql", 1));
		engine.runUntilIdle();

		assertThat(events()).isEmpty();
		engine.resetPrefixCache();
		engine.submit(engine.nowMicros(), new EngineRequest(prompt, "sql", 1));
		engine.runUntilIdle();
		BlockStored stored = (BlockStored) events().get(1);
		assertThat(stored.loraName()).isEqualTo("sql");
		assertThat(stored.loraId()).isEqualTo(1);
		assertThat(stored.blockHashes()).containsExactly(PrefixBlockHasher.hashFullBlocks(prompt, 16, "sql"));
		assertThat(stored.extraKeys()).containsExactly(List.of("sql"), List.of("sql"));
	}

	@Test
	void aSaltedPromptIsCachedApartAndNamesItsSaltInTheFirstBlocksExtraKeys() {
		VirtualTimeEngine engine = engine(100);
		int[] prompt = Prompts.tokens(40, 4);
		engine.submit(0, new EngineRequest(prompt, "sql", 1, 0, "tenant-a", null));
		long done = engine.runUntilIdle();

		BlockStored stored = (BlockStored) events().get(0);
		assertThat(stored.blockHashes()).containsExactly(PrefixBlockHasher.hashFullBlocks(prompt, 16, "sql",
				"tenant-a"));
		assertThat(stored.extraKeys()).containsExactly(List.of("sql", "tenant-a"), List.of("sql"));
		assertThat(stored.cacheSalt()).isEqualTo("tenant-a");
		assertThat(PrefixBlockHasher.hashFullBlocks(prompt, 16, "sql", "tenant-a")).doesNotContain(
				PrefixBlockHasher.hashFullBlocks(prompt, 16, "sql"));

		// the same prompt without the salt, or with another, computes every block again
		this.batches.clear();
		engine.submit(done, new EngineRequest(prompt, "sql", 1));
		done = engine.runUntilIdle();
		engine.submit(done, new EngineRequest(prompt, "sql", 1, 0, "tenant-b", null));
		done = engine.runUntilIdle();
		assertThat(events()).hasSize(2).allSatisfy((event) -> assertThat(event).isInstanceOf(BlockStored.class));
		// and with the same salt it stores nothing: every full block is a hit
		this.batches.clear();
		engine.submit(done, new EngineRequest(prompt, "sql", 1, 0, "tenant-a", null));
		engine.runUntilIdle();
		assertThat(events()).isEmpty();
	}

	@Test
	void evictionRemovesTheBlockAllocationTakes() {
		VirtualTimeEngine engine = engine(8);
		int[] first = Prompts.tokens(64, 4);
		engine.submit(0, new EngineRequest(first, null, 1));
		long done = engine.runUntilIdle();
		long[] firstHashes = PrefixBlockHasher.hashFullBlocks(first, 16, null);
		this.batches.clear();

		// 6 blocks needed and 4 never cached are free: two cached blocks go, the first prompt's leaves first
		engine.submit(done, new EngineRequest(Prompts.tokens(81, 5), null, 1));
		engine.runUntilIdle();

		List<KvCacheEvent> events = events();
		assertThat(events).filteredOn(BlockRemoved.class::isInstance)
			.containsExactly(new BlockRemoved(new long[] { firstHashes[3] }, "GPU", null),
					new BlockRemoved(new long[] { firstHashes[2] }, "GPU", null));
	}

	@Test
	void resetClearsTheCacheAndPublishesAllBlocksCleared() {
		VirtualTimeEngine engine = engine(100);
		int[] prompt = Prompts.tokens(64, 6);
		engine.submit(0, new EngineRequest(prompt, null, 1));
		engine.runUntilIdle();
		this.batches.clear();

		boolean reset = engine.resetPrefixCache();

		assertThat(reset).isTrue();
		assertThat(events()).containsExactly(AllBlocksCleared.INSTANCE);
		assertThat(engine.cachedPrefixTokens(prompt, null)).isZero();
	}

	@Test
	void resetIsRefusedWhileARunningRequestHoldsBlocks() {
		VirtualTimeEngine engine = engine(100);
		engine.submit(0, new EngineRequest(Prompts.tokens(64, 7), null, 50));
		engine.advanceTo(5000);
		this.batches.clear();

		assertThat(engine.resetPrefixCache()).isFalse();
		assertThat(events()).isEmpty();
	}

	@Test
	void blocksKnownFromEventsAreExactlyTheEngineCache() {
		VirtualTimeEngine engine = engine(200);
		SplittableRandom random = new SplittableRandom(42);
		int[][] prefixes = new int[6][];
		for (int i = 0; i < prefixes.length; i++) {
			prefixes[i] = Prompts.tokens(16 * (2 + random.nextInt(6)), 100 + i);
		}
		List<int[]> prompts = new ArrayList<>();
		long at = 0;
		for (int i = 0; i < 300; i++) {
			int[] prompt = Prompts.concat(prefixes[random.nextInt(prefixes.length)],
					Prompts.tokens(1 + random.nextInt(60), 1000 + i));
			prompts.add(prompt);
			at += random.nextInt(3000);
			engine.submit(at, new EngineRequest(prompt, null, 1 + random.nextInt(20)));
		}
		engine.runUntilIdle();

		Set<Long> known = new HashSet<>();
		for (KvCacheEvent event : events()) {
			if (event instanceof BlockStored stored) {
				for (long hash : stored.blockHashes()) {
					assertThat(known.add(hash)).as("stored once while cached").isTrue();
				}
			}
			else if (event instanceof BlockRemoved removed) {
				assertThat(known.remove(removed.blockHashes()[0])).as("removed only when stored").isTrue();
			}
		}
		for (int[] prompt : prompts) {
			long[] hashes = PrefixBlockHasher.hashFullBlocks(prompt, 16, null);
			int leading = 0;
			while (leading < hashes.length && known.contains(hashes[leading])) {
				leading++;
			}
			int usable = Math.min(leading, (prompt.length - 1) / 16);
			assertThat(engine.cachedPrefixTokens(prompt, null)).isEqualTo(usable * 16);
		}
	}
}
