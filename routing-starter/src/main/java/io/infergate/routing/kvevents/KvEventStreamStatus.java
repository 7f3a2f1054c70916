package io.infergate.routing.kvevents;

/**
 * A reading of one endpoint's event stream, for diagnostics and tests.
 *
 * @param endpoint the endpoint, {@code host:port}
 * @param publisherAddress the address subscribed to
 * @param connected whether the subscriber's connection to the publisher is up
 * @param nextSequence the sequence number expected next, −1 before the first batch (or after the history was lost)
 * @param replaying whether a replay is in progress
 * @param batches batches applied to the index, replayed ones included
 * @param events events applied
 * @param gaps sequence gaps detected
 * @param replayedBatches batches received through replay and applied
 * @param lostHistories times batches were lost for good (gap not covered by replay, replay timeout, undecodable
 * batch, stream stale): each emptied the endpoint in the index
 * @param restarts times the sequence went backwards (a restarted publisher): each emptied the endpoint
 * @param malformed messages that were not three frames or not a batch
 */
public record KvEventStreamStatus(String endpoint, String publisherAddress, boolean connected, long nextSequence,
		boolean replaying, long batches, long events, long gaps, long replayedBatches, long lostHistories,
		long restarts, long malformed) {
}
