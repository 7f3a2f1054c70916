package io.infergate.routing.prefix;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A reading of the {@link PrefixIndex} for {@code /actuator/inference} and the dashboard. Figures are read without
 * stopping dispatches, so they may be a few updates apart from each other.
 *
 * @param blockSizeChars characters per block
 * @param maxBlocks blocks hashed per request
 * @param lruCapacityPerEndpoint blocks remembered per endpoint
 * @param entries distinct block hashes held by at least one endpoint
 * @param blocksPerEndpoint blocks remembered per endpoint ({@code host:port}), each at most the capacity, sorted by
 * endpoint
 * @param approximateMemoryBytes heap the index's tables take, estimated from their array lengths (64-bit JVM,
 * compressed references); the bound at full capacity is about 24 bytes per block and endpoint for the endpoints'
 * tables plus, for the shared table, 8 + 8·⌈endpoints/64⌉ bytes per distinct block over its load (3/8 to 3/4)
 * @param dispatchedRequests requests the index has recorded since startup
 * @param dispatchedBlocks full blocks of those requests (each capped at {@code maxBlocks})
 * @param predictedHitBlocks of those blocks, the ones the index predicted were cached on the endpoint each request
 * went to: that endpoint's leading-run match at decision time, before the dispatch refreshed it
 * @param predictedHitRatio {@code predictedHitBlocks / dispatchedBlocks}, 0 before any block was dispatched: the
 * share of dispatched prompt blocks the gateway routed to where it believed them cached. It is the gateway's own
 * prediction, not the engines' measured hit rate: an engine may have evicted a block the index still remembers.
 * @param evictedBlocks blocks dropped from endpoints at capacity since startup
 */
public record PrefixIndexStats(int blockSizeChars, int maxBlocks, int lruCapacityPerEndpoint, long entries,
		Map<String, Integer> blocksPerEndpoint, long approximateMemoryBytes, long dispatchedRequests,
		long dispatchedBlocks, long predictedHitBlocks, double predictedHitRatio, long evictedBlocks) {

	public PrefixIndexStats {
		blocksPerEndpoint = Collections.unmodifiableMap(new LinkedHashMap<>(blocksPerEndpoint));
	}

	/** Blocks remembered over all endpoints (a block held by two endpoints counts twice). */
	public long totalBlocks() {
		long total = 0;
		for (int blocks : blocksPerEndpoint.values()) {
			total += blocks;
		}
		return total;
	}
}
