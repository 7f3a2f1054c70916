package io.infergate.routing.prefix;

import io.infergate.routing.endpoint.EndpointId;

/**
 * Told of each dispatch that a {@link PrefixIndex} records from this gateway's own scheduling decisions, after the
 * index has recorded it; records made with {@link PrefixIndex#record} (from other replicas, say) are not reported.
 * Called on the scheduling thread: keep it short and never block.
 */
@FunctionalInterface
public interface RecordedDispatchListener {

	void recorded(String pool, EndpointId endpoint, PrefixHashes hashes);
}
