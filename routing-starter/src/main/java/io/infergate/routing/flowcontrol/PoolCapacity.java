package io.infergate.routing.flowcontrol;

import java.util.List;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointSnapshot;
import io.infergate.routing.scheduling.saturation.SaturationDetector;

/** Whether a pool can take one more request now: flow control dispatches while it can, and queues while it cannot. */
@FunctionalInterface
public interface PoolCapacity {

	/**
	 * @param ready the pool's ready endpoints; never empty
	 * @param inFlightRequests requests this gateway dispatched to the pool that have not ended
	 * @param inFlightTokens their estimated tokens (prompt + {@code max_tokens})
	 */
	boolean hasRoom(List<Endpoint> ready, int inFlightRequests, long inFlightTokens, long nowMillis);

	/**
	 * The saturation detector: room while any ready endpoint is under its thresholds (its queue depth and KV-cache
	 * use, as last scraped, and its metrics fresh under the {@code saturated} staleness policy), counting the requests
	 * dispatched since the scrapes as waiting. Those are the pool's requests in flight now less those its endpoints
	 * had in flight when they were scraped ({@link EndpointSnapshot#inFlightRequestsAtScrape()}); the pool has room
	 * while they are fewer than its {@linkplain SaturationDetector#queueRoom queue room}. Without that count, one
	 * scrape showing room would let the whole queue go before the next could show the pods over their thresholds,
	 * moving the wait (and its order by priority and tenant) from the gateway into the engines.
	 */
	static PoolCapacity saturation(SaturationDetector detector) {
		return (ready, requests, tokens, nowMillis) -> {
			long room = detector.queueRoom(ready, nowMillis);
			if (room == 0) {
				return false;
			}
			long inFlightAtScrapes = 0;
			for (int i = 0, n = ready.size(); i < n; i++) {
				EndpointSnapshot snapshot = ready.get(i).snapshot();
				if (snapshot != null) {
					inFlightAtScrapes += snapshot.inFlightRequestsAtScrape();
				}
			}
			return requests - inFlightAtScrapes < room;
		};
	}

	/**
	 * The concurrency detector: room while the pool's requests in flight are under {@code maxRequestsPerEndpoint}
	 * times its ready endpoints and their tokens under {@code maxTokensPerEndpoint} times as many; a limit of 0 is
	 * not checked. Counts are this gateway's own, so they are exact from the instant of dispatch, without waiting
	 * for a scrape.
	 */
	static PoolCapacity concurrency(int maxRequestsPerEndpoint, long maxTokensPerEndpoint) {
		return (ready, requests, tokens, nowMillis) -> {
			int endpoints = ready.size();
			return (maxRequestsPerEndpoint == 0 || requests < (long) maxRequestsPerEndpoint * endpoints)
					&& (maxTokensPerEndpoint == 0 || tokens < maxTokensPerEndpoint * endpoints);
		};
	}

	/** The detector {@code properties} name. */
	static PoolCapacity of(FlowControlProperties properties, SaturationDetector detector) {
		return switch (properties.detector()) {
			case SATURATION -> saturation(detector);
			case CONCURRENCY -> concurrency(properties.maxRequestsPerEndpoint(), properties.maxTokensPerEndpoint());
		};
	}
}
