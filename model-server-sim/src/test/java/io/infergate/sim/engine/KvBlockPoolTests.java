package io.infergate.sim.engine;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class KvBlockPoolTests {

	@Test
	void allocationEvictsTheLeastRecentlyFreedCachedBlockFirst() {
		KvBlockPool pool = new KvBlockPool(3);
		int first = pool.allocate();
		int second = pool.allocate();
		int third = pool.allocate();
		pool.cache(first, 100);
		pool.cache(second, 200);
		pool.cache(third, 300);
		pool.release(second);
		pool.release(first);
		pool.release(third);

		int reused = pool.allocate();

		assertThat(reused).isEqualTo(second);
		assertThat(pool.cachedBlock(200)).as("evicted hash").isEqualTo(-1);
		assertThat(pool.cachedBlock(100)).isEqualTo(first);
		assertThat(pool.cachedBlock(300)).isEqualTo(third);
	}

	@Test
	void freedCachedBlocksStayHittableUntilAllocationPopsThem() {
		KvBlockPool pool = new KvBlockPool(2);
		int block = pool.allocate();
		pool.cache(block, 42);

		pool.release(block);

		assertThat(pool.numFreeBlocks()).isEqualTo(2);
		assertThat(pool.numUsedBlocks()).isZero();
		assertThat(pool.cachedBlock(42)).isEqualTo(block);
	}

	@Test
	void hitOnFreeCachedBlockTakesItOffTheFreeQueue() {
		KvBlockPool pool = new KvBlockPool(2);
		int cached = pool.allocate();
		int other = pool.allocate();
		pool.cache(cached, 7);
		pool.release(cached);
		pool.release(other);

		pool.touch(cached);

		assertThat(pool.numFreeBlocks()).isEqualTo(1);
		assertThat(pool.allocate()).as("only the uncached block is left to allocate").isEqualTo(other);
		assertThat(pool.cachedBlock(7)).isEqualTo(cached);
	}

	@Test
	void sharedBlockReturnsToTheFreeQueueOnlyWhenItsLastHolderReleasesIt() {
		KvBlockPool pool = new KvBlockPool(1);
		int block = pool.allocate();
		pool.touch(block);

		pool.release(block);
		assertThat(pool.numFreeBlocks()).isZero();
		pool.release(block);
		assertThat(pool.numFreeBlocks()).isEqualTo(1);
	}

	@Test
	void aHashAlreadyCachedKeepsItsFirstBlock() {
		KvBlockPool pool = new KvBlockPool(2);
		int first = pool.allocate();
		int duplicate = pool.allocate();

		pool.cache(first, 9);
		pool.cache(duplicate, 9);

		assertThat(pool.cachedBlock(9)).isEqualTo(first);
	}
}
