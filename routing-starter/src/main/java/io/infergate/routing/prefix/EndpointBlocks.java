package io.infergate.routing.prefix;

import java.util.Arrays;

import io.infergate.routing.endpoint.EndpointId;

/**
 * The blocks one endpoint is believed to hold, in recency order, at most {@code capacity} of them: the index's write
 * side for that endpoint.
 * <p>
 * Nodes live in primitive arrays (hash, previous, next) linked from the most to the least recently used, found through
 * an open-addressing table of node numbers. Arrays grow by doubling up to the capacity. Every method is synchronized
 * on the instance: dispatches to one endpoint take turns, dispatches to different endpoints do not meet. Lock order:
 * this, then a {@link BlockTable} stripe.
 */
final class EndpointBlocks {

	private static final int INITIAL_NODES = 64;

	private static final int NONE = -1;

	final EndpointId id;

	final int slot;

	private final int capacity;

	private long[] hashes;

	private int[] previous;

	private int[] next;

	/** Node number + 1 by hash position; 0 is empty. At most half full. */
	private int[] positions;

	private int size;

	private int head = NONE;

	private int tail = NONE;

	private boolean purged;

	EndpointBlocks(EndpointId id, int slot, int capacity) {
		this.id = id;
		this.slot = slot;
		this.capacity = capacity;
		allocate(Math.min(INITIAL_NODES, capacity));
	}

	/**
	 * Records that the endpoint now holds every block of {@code blocks}, most recent first: the blocks are touched from
	 * the last to block 0, so a block is always more recent than the blocks that extend it and eviction takes the
	 * longest continuations first (as vLLM frees a request's last blocks first). That keeps each endpoint's blocks
	 * prefix-closed: holding block n implies holding blocks 0..n−1.
	 * @return blocks evicted to make room
	 */
	synchronized int record(PrefixHashes blocks, BlockTable table) {
		if (purged) {
			return 0;
		}
		int count = Math.min(blocks.blockCount(), capacity);
		if (isMostRecentRun(blocks, count)) {
			return 0; // a repeat of the last dispatch: touching would leave the same order
		}
		int evicted = 0;
		for (int i = count - 1; i >= 0; i--) {
			long hash = blocks.hash(i);
			int node = find(hash);
			if (node != NONE) {
				moveToFront(node);
				continue;
			}
			if (size == capacity) {
				node = tail;
				unlink(node);
				unindex(node);
				table.remove(hashes[node], slot);
				evicted++;
			}
			else {
				if (size == hashes.length) {
					grow();
				}
				node = size++;
			}
			hashes[node] = hash;
			index(node);
			linkFront(node);
			table.add(hash, slot);
		}
		return evicted;
	}

	/** Whether blocks 0..count−1 are already the most recently used, in that order. */
	private boolean isMostRecentRun(PrefixHashes blocks, int count) {
		int node = head;
		for (int i = 0; i < count; i++) {
			if (node == NONE || hashes[node] != blocks.hash(i)) {
				return false;
			}
			node = next[node];
		}
		return true;
	}

	/**
	 * Forgets one block, wherever it is in the recency order: the last node moves into its place so nodes stay
	 * dense.
	 * @return whether the endpoint held it
	 */
	synchronized boolean remove(long hash, BlockTable table) {
		int node = find(hash);
		if (node == NONE) {
			return false;
		}
		unlink(node);
		unindex(node);
		table.remove(hash, slot);
		int last = --size;
		if (node != last) {
			unindex(last);
			hashes[node] = hashes[last];
			previous[node] = previous[last];
			next[node] = next[last];
			if (previous[node] != NONE) {
				next[previous[node]] = node;
			}
			else {
				head = node;
			}
			if (next[node] != NONE) {
				previous[next[node]] = node;
			}
			else {
				tail = node;
			}
			index(node);
		}
		return true;
	}

	/** Removes every block from the table; later records are still taken. */
	synchronized void clear(BlockTable table) {
		for (int node = head; node != NONE; node = next[node]) {
			table.remove(hashes[node], slot);
		}
		size = 0;
		head = NONE;
		tail = NONE;
		allocate(Math.min(INITIAL_NODES, capacity));
	}

	/** Removes every block from the table and refuses later records: the endpoint left its pool. */
	synchronized void purge(BlockTable table) {
		clear(table);
		purged = true;
		allocate(0);
	}

	synchronized int size() {
		return size;
	}

	/** Blocks from the most to the least recently used, for tests. */
	synchronized long[] hashesByRecency() {
		long[] ordered = new long[size];
		int i = 0;
		for (int node = head; node != NONE; node = next[node]) {
			ordered[i++] = hashes[node];
		}
		return ordered;
	}

	synchronized long memoryBytes() {
		return MemoryEstimate.objectBytes(11) + MemoryEstimate.arrayBytes(hashes.length, Long.BYTES)
				+ MemoryEstimate.arrayBytes(previous.length, Integer.BYTES)
				+ MemoryEstimate.arrayBytes(next.length, Integer.BYTES)
				+ MemoryEstimate.arrayBytes(positions.length, Integer.BYTES);
	}

	private void allocate(int nodes) {
		hashes = new long[nodes];
		previous = new int[nodes];
		next = new int[nodes];
		positions = new int[Math.max(2, Integer.highestOneBit(Math.max(1, nodes)) << 2)];
	}

	private void grow() {
		int nodes = (int) Math.min((long) hashes.length * 2, capacity);
		hashes = Arrays.copyOf(hashes, nodes);
		previous = Arrays.copyOf(previous, nodes);
		next = Arrays.copyOf(next, nodes);
		positions = new int[Integer.highestOneBit(nodes) << 2];
		for (int node = 0; node < size; node++) {
			index(node);
		}
	}

	private int find(long hash) {
		int mask = positions.length - 1;
		for (int position = (int) hash & mask;; position = (position + 1) & mask) {
			int entry = positions[position];
			if (entry == 0) {
				return NONE;
			}
			if (hashes[entry - 1] == hash) {
				return entry - 1;
			}
		}
	}

	private void index(int node) {
		int mask = positions.length - 1;
		int position = (int) hashes[node] & mask;
		while (positions[position] != 0) {
			position = (position + 1) & mask;
		}
		positions[position] = node + 1;
	}

	/** Removes {@code node} from the position table, shifting back later entries of its probe run. */
	private void unindex(int node) {
		int mask = positions.length - 1;
		int hole = (int) hashes[node] & mask;
		while (positions[hole] != node + 1) {
			hole = (hole + 1) & mask;
		}
		int position = hole;
		while (true) {
			position = (position + 1) & mask;
			int entry = positions[position];
			if (entry == 0) {
				break;
			}
			int home = (int) hashes[entry - 1] & mask;
			boolean homeBetweenHoleAndPosition = (hole <= position) ? (hole < home && home <= position)
					: (hole < home || home <= position);
			if (!homeBetweenHoleAndPosition) {
				positions[hole] = entry;
				hole = position;
			}
		}
		positions[hole] = 0;
	}

	private void moveToFront(int node) {
		if (node != head) {
			unlink(node);
			linkFront(node);
		}
	}

	private void linkFront(int node) {
		previous[node] = NONE;
		next[node] = head;
		if (head != NONE) {
			previous[head] = node;
		}
		head = node;
		if (tail == NONE) {
			tail = node;
		}
	}

	private void unlink(int node) {
		int before = previous[node];
		int after = next[node];
		if (before != NONE) {
			next[before] = after;
		}
		else {
			head = after;
		}
		if (after != NONE) {
			previous[after] = before;
		}
		else {
			tail = before;
		}
	}
}
