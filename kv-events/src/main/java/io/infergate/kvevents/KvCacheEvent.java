package io.infergate.kvevents;

/**
 * One change to an engine's prefix cache, as vLLM's {@code KVCacheEvent} subclasses describe it: full blocks stored,
 * blocks removed (evicted), or the whole cache cleared. Block hashes are the engine's own 64-bit values, compared as
 * bits (vLLM sends them as unsigned integers).
 */
public sealed interface KvCacheEvent permits BlockStored, BlockRemoved, AllBlocksCleared {

	/** The type tag vLLM writes for the event: its class name. */
	String tag();
}
