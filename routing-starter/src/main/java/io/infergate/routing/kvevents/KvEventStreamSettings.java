package io.infergate.routing.kvevents;

import java.time.Duration;
import java.util.Objects;

/**
 * Where and how to read one endpoint's KV-cache event stream.
 *
 * @param publisherAddress the PUB socket, e.g. {@code tcp://10.0.0.5:5557}
 * @param replayAddress the ROUTER replay socket, or null when the publisher has none
 * @param topic the topic prefix subscribed to ({@code ""}: every message)
 * @param replayTimeout how long a replay may take before the batches it was to bring count as lost
 * @param staleAfter how long the stream may stay disconnected before the endpoint's blocks are forgotten
 */
public record KvEventStreamSettings(String publisherAddress, String replayAddress, String topic,
		Duration replayTimeout, Duration staleAfter) {

	public KvEventStreamSettings {
		Objects.requireNonNull(publisherAddress, "publisherAddress");
		Objects.requireNonNull(topic, "topic");
		if (replayTimeout.isNegative() || replayTimeout.isZero()) {
			throw new IllegalArgumentException("replay-timeout must be positive, was " + replayTimeout);
		}
		if (staleAfter.isNegative() || staleAfter.isZero()) {
			throw new IllegalArgumentException("stale-after must be positive, was " + staleAfter);
		}
	}
}
