package io.infergate.routing.scheduling.load;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointMetrics;
import io.infergate.routing.endpoint.EndpointSnapshot;
import io.infergate.routing.scheduling.EndpointLoad;

import org.springframework.stereotype.Component;

/**
 * {@code engine-reported}: the requests the engine itself reported at the last scrape, which every gateway replica
 * reads alike, plus what this replica changed since then:
 * <pre>
 * load = max(0, waiting + running + inFlight_now − inFlight_atScrape)
 * </pre>
 * waiting and running are the snapshot's engine counts (all replicas' requests); inFlight is this replica's own
 * in-flight count now and when the scrape was sent ({@link EndpointSnapshot#inFlightRequestsAtScrape()}), so the
 * difference is its own dispatches since the scrape less its own requests that finished since. The other replicas'
 * changes since the scrape are the part no replica sees: at most one scrape interval's worth (50 ms by default).
 * <p>
 * With one replica and no delay between a dispatch and the engine's count, the engine counts exactly the in-flight
 * requests at the scrape and this equals {@code in-flight}. Without a snapshot yet it is {@code in-flight}. A stale
 * snapshot is used as it is: its age only widens the window of other replicas' changes it misses.
 */
@Component
public final class EngineReportedLoad implements EndpointLoad {

	public static final String NAME = "engine-reported";

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public int requests(Endpoint endpoint) {
		int inFlight = endpoint.inFlightRequests();
		EndpointSnapshot snapshot = endpoint.snapshot();
		if (snapshot == null) {
			return Math.max(0, inFlight);
		}
		EndpointMetrics metrics = snapshot.metrics();
		long load = (long) metrics.waitingRequests() + metrics.runningRequests() + inFlight
				- snapshot.inFlightRequestsAtScrape();
		return (int) Math.max(0, Math.min(Integer.MAX_VALUE, load));
	}
}
