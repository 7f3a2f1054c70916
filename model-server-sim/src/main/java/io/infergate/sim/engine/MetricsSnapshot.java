package io.infergate.sim.engine;

import java.util.List;

/**
 * The figures an engine's {@code /metrics} exposes, read at one moment.
 *
 * @param numRequestsRunning requests in the running batch
 * @param numRequestsWaiting requests queued, including preempted ones and those waiting for an adapter
 * @param kvCacheUsage used KV blocks / all blocks, 0..1; a block is used while a running request holds it
 * @param numKvBlocks KV blocks in all
 * @param blockSize tokens per block
 * @param maxNumSeqs running-batch limit
 * @param maxLoras adapter slots
 * @param runningLoraAdapters adapters with running requests, sorted
 * @param waitingLoraAdapters adapters with waiting requests, sorted
 * @param loraInfoUpdatedEpochSeconds when either adapter list last changed (engine start if never)
 * @param prefixCacheQueryTokens prompt tokens looked up in the prefix cache on admission
 * @param prefixCacheHitTokens of those, tokens found cached
 * @param promptTokens prompt tokens of admitted requests
 * @param generationTokens output tokens generated
 * @param numPreemptions requests preempted for lack of KV blocks
 * @param finishedRequests requests that generated all their tokens
 * @param timeToFirstToken TTFT histogram, seconds of engine time
 * @param e2eRequestLatency arrival-to-last-token histogram, seconds of engine time
 * @param createdEpochSeconds when the engine started, for the counters' {@code _created} series
 */
public record MetricsSnapshot(int numRequestsRunning, int numRequestsWaiting, double kvCacheUsage, int numKvBlocks,
		int blockSize, int maxNumSeqs, int maxLoras, List<String> runningLoraAdapters,
		List<String> waitingLoraAdapters, double loraInfoUpdatedEpochSeconds, long prefixCacheQueryTokens,
		long prefixCacheHitTokens, long promptTokens, long generationTokens, long numPreemptions,
		long finishedRequests, HistogramSnapshot timeToFirstToken, HistogramSnapshot e2eRequestLatency,
		double createdEpochSeconds) {
}
