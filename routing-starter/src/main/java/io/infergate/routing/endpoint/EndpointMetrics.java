package io.infergate.routing.endpoint;

import java.util.Set;

/**
 * The engine figures the scheduler reads, as scraped from one replica's {@code /metrics}, already mapped from
 * the engine's own metric names.
 *
 * @param waitingRequests requests queued in the engine, summed over engine and data-parallel ranks
 * @param runningRequests requests in the running batch, summed likewise
 * @param kvCacheUsage fraction of KV-cache blocks in use, 0..1, averaged over ranks
 * @param blockSize tokens per KV-cache block
 * @param numGpuBlocks KV-cache blocks in all
 * @param maxLoras LoRA adapter slots, 0 when LoRA is off or unknown
 * @param runningAdapters adapters with running requests
 * @param waitingAdapters adapters with waiting requests
 */
public record EndpointMetrics(int waitingRequests, int runningRequests, double kvCacheUsage, int blockSize,
		int numGpuBlocks, int maxLoras, Set<String> runningAdapters, Set<String> waitingAdapters) {

	public EndpointMetrics {
		runningAdapters = Set.copyOf(runningAdapters);
		waitingAdapters = Set.copyOf(waitingAdapters);
	}

	/** Whether another adapter could be loaded without evicting one: fewer adapters active than slots. */
	public boolean hasFreeAdapterSlot() {
		return maxLoras > 0 && activeAdapterCount() < maxLoras;
	}

	private int activeAdapterCount() {
		if (waitingAdapters.isEmpty()) {
			return runningAdapters.size();
		}
		int count = runningAdapters.size();
		for (String adapter : waitingAdapters) {
			if (!runningAdapters.contains(adapter)) {
				count++;
			}
		}
		return count;
	}
}
