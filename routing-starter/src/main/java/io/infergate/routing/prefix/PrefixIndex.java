package io.infergate.routing.prefix;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.pool.EndpointLifecycleListener;
import io.infergate.routing.pool.EndpointPool;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.scheduling.DispatchListener;
import io.infergate.routing.scheduling.SchedulingCycle;

/**
 * The gateway's approximate picture of which prompt prefixes each endpoint has in its KV cache, learnt from its own
 * routing history (GIE proposal 0602, llm-d prefix plugin).
 * <ul>
 * <li><b>Blocks.</b> A prompt is cut into blocks of {@code block-size-chars} characters; only full blocks count, at
 * most {@code max-blocks} of them, hashed as a chain seeded with the target model and adapter
 * ({@link PrefixHasher}).</li>
 * <li><b>Map.</b> Block hash → the endpoints holding it, and per endpoint an LRU of at most
 * {@code lru-capacity-per-endpoint} blocks; past it, that endpoint's least recently used blocks are evicted.</li>
 * <li><b>Updates.</b> When a request is dispatched to endpoint E ({@link #onDispatch}), E is recorded as holding all
 * of the request's blocks, refreshing their recency. An endpoint removed from its pool is purged
 * ({@link #endpointRemoved}). {@link RecordedDispatchListener}s hear of each dispatch recorded, so other gateway
 * replicas can {@link #record} it too.</li>
 * <li><b>Match.</b> An endpoint's match is the number of leading blocks it holds, counted from block 0 to the first
 * it lacks. Chaining makes a hit at block n imply blocks 0..n−1, and blocks are touched so each endpoint's set stays
 * prefix-closed (see {@link EndpointBlocks}), so matches are found by splitting the holders of block 0 on probes at
 * halving block numbers: about log2(blocks) lookups per distinct match length, and one lookup in all when nobody holds
 * block 0.</li>
 * </ul>
 * Per decision, the request is hashed once and the hashes and matches are kept in the {@link SchedulingCycle}, so
 * every scorer reading the index and the dispatch update share them.
 * <p>
 * Thread-safe. Lookups take no lock in the common case (optimistic reads on 512 stripes); a dispatch locks its
 * endpoint and, per block it adds or evicts, one stripe. Memory is bounded by capacity × endpoints; {@link #stats()}
 * reports it.
 */
public final class PrefixIndex implements DispatchListener, EndpointLifecycleListener {

	private final PrefixIndexProperties properties;

	private final PrefixHasher hasher;

	private final BlockTable table = new BlockTable();

	private final ConcurrentHashMap<EndpointId, EndpointBlocks> endpoints = new ConcurrentHashMap<>();

	private final EndpointSlots slots = new EndpointSlots();

	/** Bumped whenever an endpoint joins or leaves the index, to invalidate {@link #lastCandidatesByPool}. */
	private final AtomicLong membership = new AtomicLong();

	private final ConcurrentHashMap<String, CandidateSlots> lastCandidatesByPool = new ConcurrentHashMap<>();

	private final LongAdder dispatchedRequests = new LongAdder();

	private final LongAdder dispatchedBlocks = new LongAdder();

	private final LongAdder predictedHitBlocks = new LongAdder();

	private final LongAdder evictedBlocks = new LongAdder();

	/** Copied on add, so a dispatch reads it without a lock or an iterator. */
	private volatile RecordedDispatchListener[] recordedDispatchListeners = new RecordedDispatchListener[0];

	/** Cycle state is per index, so two indexes of different shape never read each other's hashes. */
	private final SchedulingCycle.Key<PrefixHashes> hashesKey = new SchedulingCycle.Key<>("prefix-hashes");

	private final SchedulingCycle.Key<Match> matchKey = new SchedulingCycle.Key<>("prefix-match");

	private final SchedulingCycle.Key<Endpoint> recordedKey = new SchedulingCycle.Key<>("prefix-recorded");

	public PrefixIndex(PrefixIndexProperties properties) {
		this.properties = properties;
		this.hasher = new PrefixHasher(properties.blockSizeChars(), properties.maxBlocks());
	}

	public PrefixIndexProperties properties() {
		return properties;
	}

	public int blockSizeChars() {
		return properties.blockSizeChars();
	}

	/**
	 * The request's block hashes, without a cycle: over its token ids in blocks of
	 * {@link #blockSizeTokens()} when its model's tokenizer gave them, else over its prompt text in blocks of
	 * {@code block-size-chars}.
	 */
	public PrefixHashes hash(InferenceRequest request) {
		int[] tokens = request.promptTokenIds();
		return (tokens != null)
				? hasher.hashTokens(request.targetModel(), request.adapter(), request.cacheSalt(), tokens,
						blockSizeTokens())
				: hasher.hash(request.targetModel(), request.adapter(), request.cacheSalt(), request.promptText());
	}

	/**
	 * Tokens per block when a prompt comes with token ids: {@code block-size-chars} / 4 (16 by default, vLLM's
	 * default block size), at least 1.
	 */
	public int blockSizeTokens() {
		return Math.max(1, properties.blockSizeChars() / InferenceRequest.CHARS_PER_TOKEN);
	}

	/** The request's block hashes, computed on the cycle's first call and shared by every later one. */
	public PrefixHashes hashes(SchedulingCycle cycle) {
		PrefixHashes hashes = cycle.get(hashesKey);
		if (hashes == null) {
			hashes = hash(cycle.request());
			cycle.put(hashesKey, hashes);
		}
		return hashes;
	}

	/**
	 * Each candidate's match: the leading blocks of the cycle's request it holds, by candidate index. Computed once per
	 * cycle and candidate list (the same list object) and shared; the caller must not modify the array.
	 */
	public int[] matchedBlocks(SchedulingCycle cycle, List<Endpoint> candidates) {
		Match match = cycle.get(matchKey);
		if (match != null && match.candidates() == candidates) {
			return match.matchedBlocks();
		}
		int[] matched = matchedBlocks(hashes(cycle), candidates);
		cycle.put(matchKey, new Match(candidates, matched));
		return matched;
	}

	/**
	 * Each candidate's match against {@code hashes}, by candidate index.
	 * <p>
	 * Holder sets shrink as the block number grows (sets are prefix-closed), so the candidates holding block 0 are split
	 * by divide and conquer: probing block m−1 of a range [l, h] separates the endpoints matching at least m from the
	 * rest, and each part is split further. One probe answers for every endpoint at once, so a decision costs about
	 * log2(blocks) probes per distinct match length, not per endpoint: 13 holders at two lengths of a 128-block prompt
	 * take about 15 probes where one binary search per holder takes about 90.
	 */
	public int[] matchedBlocks(PrefixHashes hashes, List<Endpoint> candidates) {
		int n = candidates.size();
		int[] matched = new int[n];
		int blockCount = hashes.blockCount();
		if (blockCount == 0 || n == 0 || endpoints.isEmpty()) {
			return matched;
		}
		CandidateSlots slots = slots(candidates);
		if (slots.maxSlot() < 0) {
			return matched;
		}
		int words = (slots.maxSlot() >>> 6) + 1;
		long[] sets = new long[(35 - Integer.numberOfLeadingZeros(blockCount)) * words];
		for (int slot : slots.slots()) {
			if (slot >= 0) {
				sets[slot >>> 6] |= 1L << slot;
			}
		}
		int[] matchBySlot = new int[words * 64];
		if (table.intersectHolders(hashes.hash(0), sets, 0, sets, words, words)) {
			split(hashes, 1, blockCount, sets, words, words, matchBySlot);
		}
		for (int i = 0; i < n; i++) {
			int slot = slots.slots()[i];
			matched[i] = (slot >= 0) ? matchBySlot[slot] : 0;
		}
		return matched;
	}

	/**
	 * The candidates' slots (−1: unknown to the index), from the pool's last candidate list when the same endpoint ids
	 * come in the same order and no endpoint has joined or left the index since: a reference comparison per candidate
	 * instead of a map lookup, which touches a few cache lines per candidate.
	 */
	private CandidateSlots slots(List<Endpoint> candidates) {
		int n = candidates.size();
		long version = membership.get();
		String pool = Objects.requireNonNullElse(candidates.get(0).pool(), "");
		CandidateSlots last = lastCandidatesByPool.get(pool);
		if (last != null && last.membership() == version && last.ids().length == n) {
			int i = 0;
			while (i < n && candidates.get(i).id() == last.ids()[i]) {
				i++;
			}
			if (i == n) {
				return last;
			}
		}
		EndpointId[] ids = new EndpointId[n];
		int[] slotsByCandidate = new int[n];
		int maxSlot = -1;
		for (int i = 0; i < n; i++) {
			ids[i] = candidates.get(i).id();
			EndpointBlocks blocks = endpoints.get(ids[i]);
			slotsByCandidate[i] = (blocks != null) ? blocks.slot : -1;
			maxSlot = Math.max(maxSlot, slotsByCandidate[i]);
		}
		CandidateSlots built = new CandidateSlots(version, ids, slotsByCandidate, maxSlot);
		lastCandidatesByPool.put(pool, built);
		return built;
	}

	/**
	 * Every slot of the set at {@code at} holds blocks 0..low−1 and matches at most {@code high} blocks: assigns each
	 * its match in [low, high]. The set is consumed; the sets after it are scratch.
	 */
	private void split(PrefixHashes hashes, int low, int high, long[] sets, int at, int words, int[] matchBySlot) {
		if (low == high) {
			for (int w = 0; w < words; w++) {
				for (long bits = sets[at + w]; bits != 0; bits &= bits - 1) {
					matchBySlot[(w << 6) + Long.numberOfTrailingZeros(bits)] = low;
				}
			}
			return;
		}
		int middle = (low + high + 1) >>> 1;
		int longer = at + words;
		if (table.intersectHolders(hashes.hash(middle - 1), sets, at, sets, longer, words)) {
			long rest = 0;
			for (int w = 0; w < words; w++) {
				sets[at + w] &= ~sets[longer + w];
				rest |= sets[at + w];
			}
			split(hashes, middle, high, sets, longer, words, matchBySlot);
			if (rest == 0) {
				return;
			}
		}
		split(hashes, low, middle - 1, sets, at, words, matchBySlot);
	}

	/** The endpoint's match against {@code hashes}: a binary search for its last held block. */
	public int matchedBlocks(PrefixHashes hashes, EndpointId endpoint) {
		EndpointBlocks blocks = endpoints.get(endpoint);
		if (blocks == null || hashes.blockCount() == 0 || !table.holds(hashes.hash(0), blocks.slot)) {
			return 0;
		}
		int low = 1;
		int high = hashes.blockCount();
		while (low < high) {
			int middle = (low + high + 1) >>> 1;
			if (table.holds(hashes.hash(middle - 1), blocks.slot)) {
				low = middle;
			}
			else {
				high = middle - 1;
			}
		}
		return low;
	}

	/**
	 * Records the cycle's request as held by {@code chosen} and counts the prediction for {@link #stats()}. Idempotent
	 * within a cycle, so every plugin of a profile that reads the index can forward its dispatch here.
	 */
	@Override
	public void onDispatch(SchedulingCycle cycle, Endpoint chosen) {
		if (cycle.get(recordedKey) == chosen) {
			return;
		}
		cycle.put(recordedKey, chosen);
		PrefixHashes hashes = hashes(cycle);
		dispatchedRequests.increment();
		if (hashes.blockCount() == 0) {
			return;
		}
		dispatchedBlocks.add(hashes.blockCount());
		predictedHitBlocks.add(predictedMatch(cycle, hashes, chosen));
		record(hashes, chosen.id());
		for (RecordedDispatchListener listener : recordedDispatchListeners) {
			listener.recorded(chosen.pool(), chosen.id(), hashes);
		}
	}

	/** Adds a listener told of every dispatch {@link #onDispatch} records from now on. */
	public synchronized void addRecordedDispatchListener(RecordedDispatchListener listener) {
		RecordedDispatchListener[] listeners = Arrays.copyOf(recordedDispatchListeners,
				recordedDispatchListeners.length + 1);
		listeners[listeners.length - 1] = Objects.requireNonNull(listener, "listener");
		recordedDispatchListeners = listeners;
	}

	private int predictedMatch(SchedulingCycle cycle, PrefixHashes hashes, Endpoint chosen) {
		Match match = cycle.get(matchKey);
		if (match != null) {
			List<Endpoint> candidates = match.candidates();
			for (int i = 0; i < candidates.size(); i++) {
				if (candidates.get(i) == chosen) {
					return match.matchedBlocks()[i];
				}
			}
		}
		return matchedBlocks(hashes, chosen.id());
	}

	/** Records {@code endpoint} as holding every block of {@code hashes}, block 0 the most recent. */
	public void record(PrefixHashes hashes, EndpointId endpoint) {
		if (hashes.blockCount() == 0) {
			return;
		}
		EndpointBlocks blocks = endpoints.get(endpoint);
		if (blocks == null) {
			blocks = endpoints.computeIfAbsent(endpoint,
					(id) -> new EndpointBlocks(id, slots.acquire(), properties.lruCapacityPerEndpoint()));
			membership.incrementAndGet(); // after the new entry is visible, so no cache keeps missing it
		}
		int evicted = blocks.record(hashes, table);
		if (evicted > 0) {
			evictedBlocks.add(evicted);
		}
	}

	/** Forgets everything about {@code endpoint}. */
	public void purge(EndpointId endpoint) {
		EndpointBlocks blocks = endpoints.remove(endpoint);
		if (blocks != null) {
			blocks.purge(table);
			membership.incrementAndGet(); // before the slot can be reused
			slots.release(blocks.slot);
		}
	}

	@Override
	public void endpointAdded(EndpointPool pool, Endpoint endpoint) {
	}

	@Override
	public void endpointRemoved(EndpointPool pool, Endpoint endpoint) {
		purge(endpoint.id());
	}

	/** The endpoint's blocks from the most to the least recently used; empty when unknown. */
	public long[] blocksByRecency(EndpointId endpoint) {
		EndpointBlocks blocks = endpoints.get(endpoint);
		return (blocks != null) ? blocks.hashesByRecency() : new long[0];
	}

	public PrefixIndexStats stats() {
		Map<String, Integer> blocksPerEndpoint = new TreeMap<>();
		long memoryBytes = table.memoryBytes() + MemoryEstimate.objectBytes(12);
		for (EndpointBlocks blocks : endpoints.values()) {
			blocksPerEndpoint.put(blocks.id.toString(), blocks.size());
			// the endpoint's node in the concurrent map and its id
			memoryBytes += blocks.memoryBytes() + MemoryEstimate.objectBytes(4) + MemoryEstimate.objectBytes(2);
		}
		long dispatched = dispatchedBlocks.sum();
		long predicted = predictedHitBlocks.sum();
		return new PrefixIndexStats(properties.blockSizeChars(), properties.maxBlocks(),
				properties.lruCapacityPerEndpoint(), table.entries(), blocksPerEndpoint, memoryBytes,
				dispatchedRequests.sum(), dispatched, predicted, (dispatched > 0) ? (double) predicted / dispatched : 0,
				evictedBlocks.sum());
	}

	/** The matches of one candidate list, kept in the cycle. */
	private record Match(List<Endpoint> candidates, int[] matchedBlocks) {
	}

	/** A candidate list's ids and slots, valid while {@link #membership} is unchanged. */
	private record CandidateSlots(long membership, EndpointId[] ids, int[] slots, int maxSlot) {
	}
}
