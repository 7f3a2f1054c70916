package io.infergate.routing.prefix;

/**
 * One engine's block hashes mapped to the gateway's keys for the same blocks ({@link TokenBlockKeys}): how a
 * {@code BlockRemoved}, which names blocks by the engine's hashes only, finds what to remove, and how a
 * {@code BlockStored} whose chain continues an earlier block finds its parent's key.
 * <p>
 * Open addressing with linear probing over two {@code long} arrays (no boxing: 16 bytes per slot, at most half
 * full), deletion by backward shift. Holds at most {@code capacity} hashes: an engine holding more than the index
 * keeps for it must have had removals missed, so reaching it starts the map afresh. Not thread-safe: one writer,
 * the endpoint's event stream.
 */
final class EngineHashKeys {

	private static final int MIN_SLOTS = 16;

	private final int capacity;

	private long[] hashes = new long[MIN_SLOTS];

	private long[] keys = new long[MIN_SLOTS];

	private boolean[] used = new boolean[MIN_SLOTS];

	private int size;

	EngineHashKeys(int capacity) {
		this.capacity = capacity;
	}

	/** The key remembered for {@code hash}, or 0. */
	long get(long hash) {
		int mask = hashes.length - 1;
		for (int slot = slot(hash, mask); used[slot]; slot = (slot + 1) & mask) {
			if (hashes[slot] == hash) {
				return keys[slot];
			}
		}
		return 0;
	}

	void put(long hash, long key) {
		if (size >= capacity) {
			clear();
		}
		if ((size + 1) * 2 > hashes.length) {
			resize(hashes.length * 2);
		}
		int mask = hashes.length - 1;
		int slot = slot(hash, mask);
		while (used[slot]) {
			if (hashes[slot] == hash) {
				keys[slot] = key;
				return;
			}
			slot = (slot + 1) & mask;
		}
		used[slot] = true;
		hashes[slot] = hash;
		keys[slot] = key;
		size++;
	}

	/** Forgets {@code hash}; returns the key it had, or 0. */
	long remove(long hash) {
		int mask = hashes.length - 1;
		int slot = slot(hash, mask);
		while (used[slot] && hashes[slot] != hash) {
			slot = (slot + 1) & mask;
		}
		if (!used[slot]) {
			return 0;
		}
		long key = keys[slot];
		// backward shift: move later entries of the run into the gap when their home is at or before it
		int gap = slot;
		for (int next = (gap + 1) & mask; used[next]; next = (next + 1) & mask) {
			int home = slot(hashes[next], mask);
			if (((next - home) & mask) >= ((next - gap) & mask)) {
				hashes[gap] = hashes[next];
				keys[gap] = keys[next];
				gap = next;
			}
		}
		used[gap] = false;
		size--;
		return key;
	}

	int size() {
		return size;
	}

	void clear() {
		hashes = new long[MIN_SLOTS];
		keys = new long[MIN_SLOTS];
		used = new boolean[MIN_SLOTS];
		size = 0;
	}

	long memoryBytes() {
		return 17L * hashes.length + MemoryEstimate.objectBytes(5);
	}

	private void resize(int slots) {
		long[] oldHashes = hashes;
		long[] oldKeys = keys;
		boolean[] oldUsed = used;
		hashes = new long[slots];
		keys = new long[slots];
		used = new boolean[slots];
		size = 0;
		for (int i = 0; i < oldHashes.length; i++) {
			if (oldUsed[i]) {
				put(oldHashes[i], oldKeys[i]);
			}
		}
	}

	private static int slot(long hash, int mask) {
		long mixed = hash * 0x9e3779b97f4a7c15L;
		return (int) (mixed ^ (mixed >>> 32)) & mask;
	}
}
