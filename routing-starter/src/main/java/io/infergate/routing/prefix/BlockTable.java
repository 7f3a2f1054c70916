package io.infergate.routing.prefix;

import java.util.Arrays;
import java.util.concurrent.locks.StampedLock;

/**
 * Block hash → the endpoints (by slot number) that hold it: the index's read side.
 * <p>
 * Open addressing with linear probing, split into {@value #STRIPES} stripes by the hash's top bits, each stripe one
 * primitive array. A key's holders are a bit set of {@code words} longs stored right after it; a stripe widens its bit
 * sets when a slot beyond them arrives. Each stripe has a {@link StampedLock}: lookups read optimistically and retry
 * under the read lock only when a writer got in between, so scoring threads take no lock in the common case; writers
 * (dispatches adding or evicting blocks) lock one stripe at a time.
 * <p>
 * Key 0 marks an empty slot; {@link PrefixHasher} never produces it. Deletion shifts later entries back instead of
 * leaving tombstones, so probe chains stay short as blocks are evicted. A stripe grows at 3/4 load and does not
 * shrink.
 */
final class BlockTable {

	/**
	 * With 512 stripes, up to about 6 million blocks and 128 endpoints, each stripe's array stays at most 384 KB. That is
	 * under half of a 1 MB G1 region, so no array is a humongous object that wastes the rest of its regions.
	 */
	static final int STRIPES = 512;

	private static final int STRIPE_SHIFT = 64 - Integer.numberOfTrailingZeros(STRIPES);

	private static final int INITIAL_CAPACITY = 16;

	private final Stripe[] stripes = new Stripe[STRIPES];

	BlockTable() {
		for (int i = 0; i < STRIPES; i++) {
			stripes[i] = new Stripe();
		}
	}

	private Stripe stripe(long hash) {
		return stripes[(int) (hash >>> STRIPE_SHIFT)];
	}

	/** Whether the endpoint in {@code slot} holds the block. */
	boolean holds(long hash, int slot) {
		return stripe(hash).holds(hash, slot);
	}

	/**
	 * Writes {@code set ∩ holders(hash)} to {@code into}: {@code words} longs of slot bits (bit s of word s/64 for slot
	 * s) read from {@code set} at {@code setOffset} and written at {@code intoOffset}. The two ranges must not overlap:
	 * an optimistic read that fails validation is redone from the untouched input.
	 * @return whether any bit is set in the result
	 */
	boolean intersectHolders(long hash, long[] set, int setOffset, long[] into, int intoOffset, int words) {
		return stripe(hash).intersectHolders(hash, set, setOffset, into, intoOffset, words);
	}

	/** Marks {@code slot} as holding the block; true when the block was in no endpoint before. */
	boolean add(long hash, int slot) {
		return stripe(hash).add(hash, slot);
	}

	/** Unmarks {@code slot}; true when the block is then in no endpoint and has left the table. */
	boolean remove(long hash, int slot) {
		return stripe(hash).remove(hash, slot);
	}

	/** Distinct blocks held by at least one endpoint. */
	long entries() {
		long entries = 0;
		for (Stripe stripe : stripes) {
			entries += stripe.size();
		}
		return entries;
	}

	/** Bytes of the stripes' arrays and objects. */
	long memoryBytes() {
		long bytes = MemoryEstimate.objectBytes(STRIPES);
		for (Stripe stripe : stripes) {
			bytes += stripe.memoryBytes();
		}
		return bytes;
	}

	private static final class Stripe {

		private final StampedLock lock = new StampedLock();

		/** Replaced whole (grow, widen) under the write lock, so a reader sees one consistent shape. */
		private Segment segment = new Segment(INITIAL_CAPACITY, 1);

		boolean holds(long hash, int slot) {
			long stamp = lock.tryOptimisticRead();
			boolean held = segment.holds(hash, slot);
			if (lock.validate(stamp)) {
				return held;
			}
			stamp = lock.readLock();
			try {
				return segment.holds(hash, slot);
			}
			finally {
				lock.unlockRead(stamp);
			}
		}

		boolean intersectHolders(long hash, long[] set, int setOffset, long[] into, int intoOffset, int words) {
			long stamp = lock.tryOptimisticRead();
			boolean any = segment.intersect(hash, set, setOffset, into, intoOffset, words);
			if (lock.validate(stamp)) {
				return any;
			}
			stamp = lock.readLock();
			try {
				return segment.intersect(hash, set, setOffset, into, intoOffset, words);
			}
			finally {
				lock.unlockRead(stamp);
			}
		}

		boolean add(long hash, int slot) {
			long stamp = lock.writeLock();
			try {
				Segment current = segment;
				int word = slot >>> 6;
				if (word >= current.words) {
					current = current.copy(current.capacity(), word + 1);
				}
				int index = current.find(hash);
				boolean fresh = index < 0;
				if (fresh) {
					if ((current.size + 1) * 4L > current.capacity() * 3L) {
						current = current.copy(current.capacity() * 2, current.words);
					}
					index = current.insert(hash);
				}
				current.set(index, slot);
				segment = current;
				return fresh;
			}
			finally {
				lock.unlockWrite(stamp);
			}
		}

		boolean remove(long hash, int slot) {
			long stamp = lock.writeLock();
			try {
				Segment current = segment;
				int word = slot >>> 6;
				int index = current.find(hash);
				if (index < 0 || word >= current.words) {
					return false;
				}
				if (!current.clear(index, slot)) {
					return false;
				}
				current.delete(index);
				return true;
			}
			finally {
				lock.unlockWrite(stamp);
			}
		}

		int size() {
			long stamp = lock.readLock();
			try {
				return segment.size;
			}
			finally {
				lock.unlockRead(stamp);
			}
		}

		long memoryBytes() {
			long stamp = lock.readLock();
			try {
				return MemoryEstimate.objectBytes(3) + segment.memoryBytes();
			}
			finally {
				lock.unlockRead(stamp);
			}
		}
	}

	/**
	 * One stripe's entries in a single array, each a key followed by {@code words} longs of holder bits, so a probe
	 * reads the key and its holders from one cache line.
	 */
	private static final class Segment {

		final long[] entries;

		final int words;

		final int stride;

		final int mask;

		int size;

		Segment(int capacity, int words) {
			this.words = words;
			this.stride = words + 1;
			this.entries = new long[capacity * stride];
			this.mask = capacity - 1;
		}

		int capacity() {
			return mask + 1;
		}

		/**
		 * The position of {@code hash}, or −1. Bounded by the capacity so a racy optimistic read of a table being
		 * rewritten cannot loop; the caller validates and retries.
		 */
		int find(long hash) {
			int index = (int) hash & mask;
			for (int probes = 0; probes <= mask; probes++) {
				long key = entries[index * stride];
				if (key == hash) {
					return index;
				}
				if (key == 0) {
					return -1;
				}
				index = (index + 1) & mask;
			}
			return -1;
		}

		boolean holds(long hash, int slot) {
			int word = slot >>> 6;
			if (word >= words) {
				return false;
			}
			int index = find(hash);
			return index >= 0 && (entries[index * stride + 1 + word] & (1L << slot)) != 0;
		}

		boolean intersect(long hash, long[] set, int setOffset, long[] into, int intoOffset, int count) {
			int index = find(hash);
			long any = 0;
			for (int w = 0; w < count; w++) {
				long holders = (index >= 0 && w < words) ? entries[index * stride + 1 + w] : 0;
				long both = set[setOffset + w] & holders;
				into[intoOffset + w] = both;
				any |= both;
			}
			return any != 0;
		}

		/** Sets a bit of the entry at {@code index}. */
		void set(int index, int slot) {
			entries[index * stride + 1 + (slot >>> 6)] |= 1L << slot;
		}

		/** Clears a bit of the entry at {@code index}; true when it has no holder left. */
		boolean clear(int index, int slot) {
			int base = index * stride + 1;
			entries[base + (slot >>> 6)] &= ~(1L << slot);
			for (int w = 0; w < words; w++) {
				if (entries[base + w] != 0) {
					return false;
				}
			}
			return true;
		}

		/** Inserts a key known to be absent, with no holder bits yet; returns its position. */
		int insert(long hash) {
			int index = (int) hash & mask;
			while (entries[index * stride] != 0) {
				index = (index + 1) & mask;
			}
			entries[index * stride] = hash;
			size++;
			return index;
		}

		/** Removes the entry at {@code index}, shifting back later entries of its probe run (no tombstones). */
		void delete(int index) {
			int hole = index;
			int next = index;
			while (true) {
				next = (next + 1) & mask;
				long key = entries[next * stride];
				if (key == 0) {
					break;
				}
				int home = (int) key & mask;
				boolean homeBetweenHoleAndNext = (hole <= next) ? (hole < home && home <= next)
						: (hole < home || home <= next);
				if (!homeBetweenHoleAndNext) {
					System.arraycopy(entries, next * stride, entries, hole * stride, stride);
					hole = next;
				}
			}
			Arrays.fill(entries, hole * stride, hole * stride + stride, 0);
			size--;
		}

		Segment copy(int capacity, int newWords) {
			Segment copy = new Segment(capacity, newWords);
			for (int i = 0; i <= mask; i++) {
				long key = entries[i * stride];
				if (key != 0) {
					int index = copy.insert(key);
					System.arraycopy(entries, i * stride + 1, copy.entries, index * copy.stride + 1, words);
				}
			}
			return copy;
		}

		long memoryBytes() {
			return MemoryEstimate.objectBytes(5) + MemoryEstimate.arrayBytes(entries.length, Long.BYTES);
		}
	}
}
