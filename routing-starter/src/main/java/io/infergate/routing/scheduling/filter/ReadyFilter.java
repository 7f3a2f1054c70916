package io.infergate.routing.scheduling.filter;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.SchedulingCycle;
import io.infergate.routing.scheduling.saturation.SaturationDetector;

import org.springframework.stereotype.Component;

/**
 * {@code ready}: keeps the endpoints whose metrics are fresh enough to route on, as the
 * {@link SaturationDetector} judges at the decision's time.
 * <ul>
 * <li>Staleness policy {@code saturated} (default): drops an endpoint whose snapshot is missing or older than
 * {@code infergate.scheduling.saturation.staleness-threshold} (default 200 ms).</li>
 * <li>Staleness policy {@code ignore}: keeps every endpoint.</li>
 * </ul>
 * When none remains it returns an empty list; the pool's failure mode then decides what happens to the request.
 * <p>
 * Readiness here is the freshness of metrics alone. {@link Endpoint#isReady()}, the scraper's own flag, is not read:
 * an endpoint whose scrapes fail soon has a stale snapshot, and under {@code ignore} the operator has chosen to route
 * without fresh metrics.
 */
@Component
public final class ReadyFilter extends RetainingFilter {

	public static final String NAME = "ready";

	private final SaturationDetector detector;

	public ReadyFilter(SaturationDetector detector) {
		super(false);
		this.detector = detector;
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	boolean keeps(SchedulingCycle cycle, Endpoint endpoint) {
		return detector.isReady(endpoint, cycle.nowMillis());
	}
}
