package io.infergate.routing.prefix;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A reading of the {@link EngineBlockIndex}, taken without stopping updates.
 *
 * @param capacityPerEndpoint blocks kept per endpoint at most
 * @param entries distinct block hashes held by at least one endpoint
 * @param blocksPerEndpoint blocks each endpoint ({@code host:port}) is known to hold, sorted by endpoint
 * @param approximateMemoryBytes heap of the index's tables, estimated from their array lengths
 * @param storedBlocks block hashes stored since startup ({@code BlockStored})
 * @param removedBlocks block hashes removed since startup ({@code BlockRemoved} of a block held)
 * @param clears endpoints emptied since startup ({@code AllBlocksCleared}, or a stream that lost its history)
 * @param evictedBlocks blocks dropped because an endpoint reached the capacity (removals were missed)
 */
public record EngineBlockIndexStats(int capacityPerEndpoint, long entries, Map<String, Integer> blocksPerEndpoint,
		long approximateMemoryBytes, long storedBlocks, long removedBlocks, long clears, long evictedBlocks) {

	public EngineBlockIndexStats {
		blocksPerEndpoint = Collections.unmodifiableMap(new LinkedHashMap<>(blocksPerEndpoint));
	}
}
