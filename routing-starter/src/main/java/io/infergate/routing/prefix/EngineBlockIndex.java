package io.infergate.routing.prefix;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import io.infergate.kvevents.AllBlocksCleared;
import io.infergate.kvevents.BlockRemoved;
import io.infergate.kvevents.BlockStored;
import io.infergate.kvevents.KvCacheEvent;
import io.infergate.kvevents.KvEventBatch;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.pool.EndpointLifecycleListener;
import io.infergate.routing.pool.EndpointPool;

/**
 * Which KV blocks each endpoint's engine holds, as its KV-cache events report them: the engine's truth, where
 * {@link PrefixIndex} is the gateway's guess from its own dispatches. Blocks are keyed by the gateway's own hash of
 * their token ids ({@link TokenBlockKeys}), never by the engine's block hashes, so any engine that publishes
 * {@code token_ids} matches a prompt tokenized by the model's tokenizer, whatever hash function it uses.
 * <ul>
 * <li><b>Updates</b> ({@link #apply}): {@code BlockStored} keys each block from its parent's key (the chain's root
 * for a prompt's first block, the adapter's own root under LoRA) and its token ids, adds the keys to the endpoint and
 * remembers engine hash → key ({@link EngineHashKeys}); a stored chain whose parent hash was never seen cannot be
 * keyed and is left out. {@code BlockRemoved} finds the keys of the engine's hashes and takes them away,
 * {@code AllBlocksCleared} empties it, and so does {@link #clear} when the endpoint's event stream can no longer
 * vouch for what it held. The last {@code block_size} an endpoint reported is kept ({@link #blockSize}).</li>
 * <li><b>Bound.</b> At most {@code capacity-per-endpoint} blocks (and engine hashes) per endpoint; past it the least recently stored go
 * first. An engine never holds more blocks than it has, so the bound only bites when removals were missed.</li>
 * <li><b>Match</b> ({@link #matchedBlocks}): an endpoint's match is its leading run of a prompt's block hashes, from
 * block 0 to the first it lacks. Engine sets need not be prefix-closed (a parent may be evicted before a child a
 * running request still holds), so blocks are walked in order with the candidates still matching as one bit set:
 * one table probe per block up to the longest match, whatever the number of candidates.</li>
 * </ul>
 * Thread-safe: one writer per endpoint at a time (its event stream), any number of readers; lookups take no lock in
 * the common case. Memory: about 24 bytes per endpoint-block for the endpoints' tables, 16 to 32 for the engine
 * hashes, plus, shared, 8 + 8·⌈endpoints/64⌉ bytes per
 * distinct block over the table's load (3/8 to 3/4); {@link #stats()} reports the estimate.
 */
public final class EngineBlockIndex implements EndpointLifecycleListener {

	private final EngineBlockIndexProperties properties;

	private final BlockTable table = new BlockTable();

	private final EndpointSlots slots = new EndpointSlots();

	private final ConcurrentHashMap<EndpointId, EngineBlocks> endpoints = new ConcurrentHashMap<>();

	private final LongAdder storedBlocks = new LongAdder();

	private final LongAdder removedBlocks = new LongAdder();

	private final LongAdder clears = new LongAdder();

	private final LongAdder evictedBlocks = new LongAdder();

	public EngineBlockIndex(EngineBlockIndexProperties properties) {
		this.properties = properties;
	}

	public EngineBlockIndexProperties properties() {
		return properties;
	}

	/** Applies every event of the batch, in order, to {@code endpoint}'s blocks. */
	public void apply(EndpointId endpoint, KvEventBatch batch) {
		for (KvCacheEvent event : batch.events()) {
			apply(endpoint, event);
		}
	}

	public void apply(EndpointId endpoint, KvCacheEvent event) {
		if (event instanceof BlockStored stored) {
			int count = stored.blockHashes().length;
			int blockSize = stored.blockSize();
			if (count == 0 || blockSize < 1 || stored.tokenIds().length < (long) count * blockSize) {
				return;
			}
			EngineBlocks engine = engine(endpoint);
			engine.blockSize = blockSize;
			long[] keys = new long[count];
			synchronized (engine) {
				long parent = (stored.parentBlockHash() == null)
						? TokenBlockKeys.root(stored.loraName(), stored.cacheSalt())
						: engine.keys.get(stored.parentBlockHash());
				if (parent == 0) {
					// the parent was never seen (events missed, or evicted from the map): the chain cannot be keyed
					return;
				}
				for (int i = 0; i < count; i++) {
					parent = TokenBlockKeys.next(parent, stored.tokenIds(), i * blockSize, blockSize);
					keys[i] = parent;
					engine.keys.put(stored.blockHashes()[i], parent);
				}
			}
			int evicted = engine.blocks.record(new PrefixHashes(keys), table);
			storedBlocks.add(count);
			if (evicted > 0) {
				evictedBlocks.add(evicted);
			}
		}
		else if (event instanceof BlockRemoved removed) {
			EngineBlocks engine = endpoints.get(endpoint);
			if (engine != null) {
				for (long hash : removed.blockHashes()) {
					long key;
					synchronized (engine) {
						key = engine.keys.remove(hash);
					}
					if (key != 0 && engine.blocks.remove(key, table)) {
						removedBlocks.increment();
					}
				}
			}
		}
		else if (event instanceof AllBlocksCleared) {
			clear(endpoint);
		}
	}

	/** Forgets every block of {@code endpoint}, keeping it known (its block size too). */
	public void clear(EndpointId endpoint) {
		EngineBlocks engine = endpoints.get(endpoint);
		if (engine != null) {
			engine.blocks.clear(table);
			synchronized (engine) {
				engine.keys.clear();
			}
			clears.increment();
		}
	}

	/** Forgets {@code endpoint} altogether. */
	public void purge(EndpointId endpoint) {
		EngineBlocks engine = endpoints.remove(endpoint);
		if (engine != null) {
			engine.blocks.purge(table);
			slots.release(engine.blocks.slot);
		}
	}

	@Override
	public void endpointAdded(EndpointPool pool, Endpoint endpoint) {
	}

	@Override
	public void endpointRemoved(EndpointPool pool, Endpoint endpoint) {
		purge(endpoint.id());
	}

	/** The tokens per block {@code endpoint} last reported, 0 before its first {@code BlockStored}. */
	public int blockSize(EndpointId endpoint) {
		EngineBlocks engine = endpoints.get(endpoint);
		return (engine != null) ? engine.blockSize : 0;
	}

	/** Blocks {@code endpoint} is known to hold. */
	public int blocks(EndpointId endpoint) {
		EngineBlocks engine = endpoints.get(endpoint);
		return (engine != null) ? engine.blocks.size() : 0;
	}

	/**
	 * Each candidate's leading run of {@code keys[0..count)} ({@link TokenBlockKeys} of a prompt's token ids): the
	 * blocks it holds from block 0 up to the first it lacks, by candidate index.
	 */
	public int[] matchedBlocks(long[] keys, int count, List<Endpoint> candidates) {
		int n = candidates.size();
		int[] matched = new int[n];
		if (count == 0 || n == 0 || endpoints.isEmpty()) {
			return matched;
		}
		int[] slotOf = new int[n];
		int maxSlot = -1;
		for (int i = 0; i < n; i++) {
			EngineBlocks engine = endpoints.get(candidates.get(i).id());
			slotOf[i] = (engine != null) ? engine.blocks.slot : -1;
			maxSlot = Math.max(maxSlot, slotOf[i]);
		}
		if (maxSlot < 0) {
			return matched;
		}
		int words = (maxSlot >>> 6) + 1;
		// [0, words): candidates matching every block so far; [words, 2·words): those also holding the next one
		long[] sets = new long[2 * words];
		for (int slot : slotOf) {
			if (slot >= 0) {
				sets[slot >>> 6] |= 1L << slot;
			}
		}
		int[] matchBySlot = new int[words * 64];
		int block = 0;
		while (block < count) {
			boolean any = table.intersectHolders(keys[block], sets, 0, sets, words, words);
			for (int w = 0; w < words; w++) {
				for (long lost = sets[w] & ~sets[words + w]; lost != 0; lost &= lost - 1) {
					matchBySlot[(w << 6) + Long.numberOfTrailingZeros(lost)] = block;
				}
				sets[w] = sets[words + w];
			}
			if (!any) {
				break;
			}
			block++;
		}
		if (block == count) {
			for (int w = 0; w < words; w++) {
				for (long bits = sets[w]; bits != 0; bits &= bits - 1) {
					matchBySlot[(w << 6) + Long.numberOfTrailingZeros(bits)] = count;
				}
			}
		}
		for (int i = 0; i < n; i++) {
			matched[i] = (slotOf[i] >= 0) ? matchBySlot[slotOf[i]] : 0;
		}
		return matched;
	}

	public EngineBlockIndexStats stats() {
		Map<String, Integer> blocksPerEndpoint = new TreeMap<>();
		long memoryBytes = table.memoryBytes() + MemoryEstimate.objectBytes(8);
		for (Map.Entry<EndpointId, EngineBlocks> entry : endpoints.entrySet()) {
			EndpointBlocks blocks = entry.getValue().blocks;
			blocksPerEndpoint.put(entry.getKey().toString(), blocks.size());
			memoryBytes += blocks.memoryBytes() + MemoryEstimate.objectBytes(4) + MemoryEstimate.objectBytes(2)
					+ MemoryEstimate.objectBytes(2) + entry.getValue().keys.memoryBytes();
		}
		return new EngineBlockIndexStats(properties.capacityPerEndpoint(), table.entries(), blocksPerEndpoint,
				memoryBytes, storedBlocks.sum(), removedBlocks.sum(), clears.sum(), evictedBlocks.sum());
	}

	private EngineBlocks engine(EndpointId endpoint) {
		EngineBlocks engine = endpoints.get(endpoint);
		if (engine == null) {
			engine = endpoints.computeIfAbsent(endpoint, (id) -> new EngineBlocks(
					new EndpointBlocks(id, slots.acquire(), properties.capacityPerEndpoint()),
					new EngineHashKeys(properties.capacityPerEndpoint())));
		}
		return engine;
	}

	/**
	 * One endpoint's blocks (by the gateway's keys), its engine's hashes mapped to those keys, and the block size its
	 * engine reports.
	 */
	private static final class EngineBlocks {

		final EndpointBlocks blocks;

		final EngineHashKeys keys;

		volatile int blockSize;

		EngineBlocks(EndpointBlocks blocks, EngineHashKeys keys) {
			this.blocks = blocks;
			this.keys = keys;
		}
	}
}
