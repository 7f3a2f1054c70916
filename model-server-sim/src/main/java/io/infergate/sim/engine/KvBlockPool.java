package io.infergate.sim.engine;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * The KV cache as vLLM V1 manages it with prefix caching: {@code numBlocks} blocks of {@code blockSize} tokens, a
 * reference count per block, a hash table from block hash to cached block, and a doubly linked free queue.
 *
 * <ul>
 * <li>A freed block (reference count 0) goes to the tail of the free queue and keeps its hash, so it can still be
 * hit; callers free a request's blocks last-first, so a prefix's root outlives its leaves.</li>
 * <li>A hit on a free cached block takes it off the queue.</li>
 * <li>Eviction is lazy: only when allocation pops a cached block from the head of the queue is its hash dropped.</li>
 * </ul>
 * Usage is {@code (numBlocks - free) / numBlocks}. All operations are O(1) apart from hash lookups. An optional
 * listener hears of every evicted hash (for KV-cache events).
 */
final class KvBlockPool {

	private static final int NONE = -1;

	private final int numBlocks;

	private final int[] refCounts;

	private final long[] hashes;

	private final boolean[] hashed;

	private final int[] prev;

	private final int[] next;

	private final Map<Long, Integer> cachedBlockByHash = new HashMap<>();

	private int head = NONE;

	private int tail = NONE;

	private int numFreeBlocks;

	private LongConsumer evictionListener;

	KvBlockPool(int numBlocks) {
		this.numBlocks = numBlocks;
		this.refCounts = new int[numBlocks];
		this.hashes = new long[numBlocks];
		this.hashed = new boolean[numBlocks];
		this.prev = new int[numBlocks];
		this.next = new int[numBlocks];
		for (int block = 0; block < numBlocks; block++) {
			append(block);
		}
	}

	int numBlocks() {
		return this.numBlocks;
	}

	/** Told the hash of every cached block that allocation evicts; null for none. */
	void evictionListener(LongConsumer listener) {
		this.evictionListener = listener;
	}

	int numFreeBlocks() {
		return this.numFreeBlocks;
	}

	int numUsedBlocks() {
		return this.numBlocks - this.numFreeBlocks;
	}

	/** The cached block holding {@code hash}, or -1. */
	int cachedBlock(long hash) {
		Integer block = this.cachedBlockByHash.get(hash);
		return (block != null) ? block : NONE;
	}

	/** Whether taking a reference on {@code block} would take it off the free queue. */
	boolean isFree(int block) {
		return this.refCounts[block] == 0;
	}

	/** Takes a reference on a cached block, removing it from the free queue on its first reference. */
	void touch(int block) {
		if (this.refCounts[block]++ == 0) {
			unlink(block);
		}
	}

	/** Pops the head of the free queue, evicting its cached hash if it has one; the caller must check capacity. */
	int allocate() {
		int block = this.head;
		if (block == NONE) {
			throw new IllegalStateException("no free KV block");
		}
		unlink(block);
		if (this.hashed[block]) {
			this.cachedBlockByHash.remove(this.hashes[block], block);
			this.hashed[block] = false;
			if (this.evictionListener != null) {
				this.evictionListener.accept(this.hashes[block]);
			}
		}
		this.refCounts[block] = 1;
		return block;
	}

	/**
	 * Registers a now-full block under its hash; a hash already cached keeps its first block, as in vLLM.
	 * @return whether the hash entered the cache
	 */
	boolean cache(int block, long hash) {
		if (!this.hashed[block] && this.cachedBlockByHash.putIfAbsent(hash, block) == null) {
			this.hashes[block] = hash;
			this.hashed[block] = true;
			return true;
		}
		return false;
	}

	/**
	 * Forgets every cached hash, as vLLM's prefix-cache reset does; only when no block is in use.
	 * @return false, changing nothing, while a block is in use
	 */
	boolean clearCache() {
		if (numUsedBlocks() > 0) {
			return false;
		}
		this.cachedBlockByHash.clear();
		Arrays.fill(this.hashed, false);
		return true;
	}

	/** Drops a reference; a block nobody holds goes to the tail of the free queue, still cached. */
	void release(int block) {
		if (--this.refCounts[block] == 0) {
			append(block);
		}
	}

	private void append(int block) {
		this.prev[block] = this.tail;
		this.next[block] = NONE;
		if (this.tail != NONE) {
			this.next[this.tail] = block;
		}
		else {
			this.head = block;
		}
		this.tail = block;
		this.numFreeBlocks++;
	}

	private void unlink(int block) {
		int before = this.prev[block];
		int after = this.next[block];
		if (before != NONE) {
			this.next[before] = after;
		}
		else {
			this.head = after;
		}
		if (after != NONE) {
			this.prev[after] = before;
		}
		else {
			this.tail = before;
		}
		this.numFreeBlocks--;
	}
}
