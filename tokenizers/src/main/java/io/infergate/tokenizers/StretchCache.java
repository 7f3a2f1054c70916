package io.infergate.tokenizers;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The token ids of recently encoded stretches of text (the text between two added tokens: a message's role and
 * content once rendered, a system prompt, a turn of the history), least recently used evicted first, bounded by the
 * characters it holds. Chat requests repeat most of their rendered text: every request of an application sends its
 * system prompt, every turn of a conversation sends the turns before it. Thread-safe; each call holds a lock for a
 * map operation only.
 */
final class StretchCache {

	/** What an entry costs beyond its characters and ids, in characters: the key, the entry, the arrays' headers. */
	private static final int ENTRY_OVERHEAD_CHARS = 64;

	private final long capacityChars;

	private final long largestChars;

	private final LinkedHashMap<String, int[]> entries = new LinkedHashMap<>(256, 0.75f, true);

	private long heldChars;

	private long hits;

	private long misses;

	/**
	 * @param capacityBytes about how much memory it may hold: two bytes a character, four an id
	 */
	StretchCache(long capacityBytes) {
		this.capacityChars = Math.max(0, capacityBytes / 2);
		// one stretch never takes more than an eighth of it: a long document does not flush every system prompt
		this.largestChars = capacityChars / 8;
	}

	boolean enabled() {
		return capacityChars > 0;
	}

	/** The ids of {@code stretch} if held, else {@code null}. */
	synchronized int[] get(String stretch) {
		int[] ids = entries.get(stretch);
		if (ids != null) {
			hits++;
		}
		else {
			misses++;
		}
		return ids;
	}

	/**
	 * The ids of {@code stretch} if held, else {@code null}, counting nothing: a caller that uses what it found counts
	 * it with {@link #count}, and one that does not looks again with {@link #get}.
	 */
	synchronized int[] peek(String stretch) {
		return entries.get(stretch);
	}

	/** Counts stretches found by {@link #peek} and used, and stretches encoded after a {@link #peek} missed them. */
	synchronized void count(int found, int encoded) {
		hits += found;
		misses += encoded;
	}

	void put(String stretch, int[] ids) {
		long cost = cost(stretch, ids);
		if (cost > largestChars) {
			return;
		}
		synchronized (this) {
			int[] previous = entries.put(stretch, ids);
			if (previous != null) {
				heldChars -= cost(stretch, previous);
			}
			heldChars += cost;
			Iterator<Map.Entry<String, int[]>> eldest = entries.entrySet().iterator();
			while (heldChars > capacityChars && eldest.hasNext()) {
				Map.Entry<String, int[]> entry = eldest.next();
				heldChars -= cost(entry.getKey(), entry.getValue());
				eldest.remove();
			}
		}
	}

	private static long cost(String stretch, int[] ids) {
		return stretch.length() + 2L * ids.length + ENTRY_OVERHEAD_CHARS;
	}

	/** Lookups that found their stretch, and those that did not. */
	synchronized long[] counts() {
		return new long[] { hits, misses };
	}

	synchronized long heldBytes() {
		return 2 * heldChars;
	}
}
