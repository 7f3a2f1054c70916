package io.infergate.routing.replica;

/**
 * Counters of one replica's {@link DispatchSharing} since it started.
 *
 * @param published own dispatches sent to the channel
 * @param publishFailures own dispatches the channel refused (transport down, queue full)
 * @param received messages heard, this replica's own echoes included
 * @param applied peers' dispatches recorded in the prefix index
 * @param rejected malformed messages and dispatches to endpoints this replica does not have
 */
public record DispatchSharingStats(long published, long publishFailures, long received, long applied,
		long rejected) {
}
