package io.infergate.bench.quality.replay;

import java.util.List;

/**
 * The outcome of one replay: every measured request, and the engines' counters over the measured window (from the
 * first measured arrival to the end of the run), summed over the pods.
 *
 * @param policy the scheduling profile
 * @param ratePerSecond the Poisson rate, NaN for closed-loop
 * @param measured the measured requests in arrival order (warm-up left out)
 * @param issued requests sent, warm-up included
 * @param completed requests that generated all their tokens, warm-up included
 * @param failed requests that got no pod or that the pod refused, warm-up included
 * @param prefixQueryTokens prompt tokens the engines looked up in their prefix caches
 * @param prefixHitTokens of those, tokens found cached
 * @param preemptions requests the engines preempted for lack of KV blocks
 * @param measuredRequestsPerPod measured requests each pod received
 * @param endMicros virtual time at which the last request ended
 * @param prefixIndexBytes each gateway replica's prefix index at the end of the run, its own estimate of its memory
 * ({@link io.infergate.routing.prefix.PrefixIndexStats#approximateMemoryBytes()}); empty when not known
 * @param flowControl whether the gateways' flow control was on
 * @param completionMicros when each request of the run completed (warm-up included), in completion order; empty when
 * not known
 */
public record RunResult(String policy, double ratePerSecond, List<RequestRecord> measured, long issued,
		long completed, long failed, long prefixQueryTokens, long prefixHitTokens, long preemptions,
		long[] measuredRequestsPerPod, long endMicros, long[] prefixIndexBytes, boolean flowControl,
		long[] completionMicros) {

	/** A run whose completion times are not kept. */
	public RunResult(String policy, double ratePerSecond, List<RequestRecord> measured, long issued, long completed,
			long failed, long prefixQueryTokens, long prefixHitTokens, long preemptions, long[] measuredRequestsPerPod,
			long endMicros, long[] prefixIndexBytes, boolean flowControl) {
		this(policy, ratePerSecond, measured, issued, completed, failed, prefixQueryTokens, prefixHitTokens,
				preemptions, measuredRequestsPerPod, endMicros, prefixIndexBytes, flowControl, new long[0]);
	}

	/** A run whose flow control is not known (a live run reads no gateway setting): reported as off. */
	public RunResult(String policy, double ratePerSecond, List<RequestRecord> measured, long issued, long completed,
			long failed, long prefixQueryTokens, long prefixHitTokens, long preemptions, long[] measuredRequestsPerPod,
			long endMicros, long[] prefixIndexBytes) {
		this(policy, ratePerSecond, measured, issued, completed, failed, prefixQueryTokens, prefixHitTokens,
				preemptions, measuredRequestsPerPod, endMicros, prefixIndexBytes, false);
	}
}
