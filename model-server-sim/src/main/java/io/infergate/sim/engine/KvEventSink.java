package io.infergate.sim.engine;

import io.infergate.kvevents.KvEventBatch;

/**
 * Receives the engine's KV-cache events, one batch per engine step that changed the prefix cache, as vLLM publishes
 * them: {@code BlockStored} when full prompt blocks enter the cache, {@code BlockRemoved} when allocation evicts a
 * cached block, {@code AllBlocksCleared} on a reset. Called on the thread driving the engine, in order; must not
 * block for long.
 */
@FunctionalInterface
public interface KvEventSink {

	/** No events: the engine does not build them at all. */
	KvEventSink NONE = (batch) -> {
	};

	void publish(KvEventBatch batch);
}
