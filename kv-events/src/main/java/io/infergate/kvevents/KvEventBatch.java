package io.infergate.kvevents;

import java.util.List;

/**
 * What one published message carries: vLLM's {@code KVEventBatch}, the events of one engine step in order.
 *
 * @param ts when the batch was made, epoch seconds
 * @param events the events, in the order the engine applied them
 * @param dataParallelRank the publishing engine's data-parallel rank, or null when the publisher set none
 */
public record KvEventBatch(double ts, List<KvCacheEvent> events, Integer dataParallelRank) {

	public KvEventBatch {
		events = List.copyOf(events);
	}
}
