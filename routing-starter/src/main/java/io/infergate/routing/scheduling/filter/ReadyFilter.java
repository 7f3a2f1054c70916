package io.infergate.routing.scheduling.filter;

import java.time.Duration;

import org.hibernate.validator.constraints.time.DurationMin;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.EndpointFilter;
import io.infergate.routing.scheduling.PluginType;
import io.infergate.routing.scheduling.SchedulingCycle;
import io.infergate.routing.scheduling.saturation.SaturationDetector;
import io.infergate.routing.scheduling.saturation.StalenessPolicy;

import org.springframework.stereotype.Component;

/**
 * {@code ready}: keeps the endpoints whose metrics are fresh enough to route on, as the
 * {@link SaturationDetector} judges at the decision's time.
 * <ul>
 * <li>Staleness policy {@code saturated} (default): drops an endpoint whose snapshot is missing or older than
 * {@code infergate.scheduling.saturation.staleness-threshold} (default 200 ms).</li>
 * <li>Staleness policy {@code ignore}: keeps every endpoint.</li>
 * </ul>
 * When none is fresh it keeps them all, as the {@code saturation} filter keeps all when all are saturated: under
 * policy {@code saturated} a stale endpoint counts as saturated, not as gone. Endpoints that stop answering are
 * taken out of rotation by the scraper (not ready after failed scrapes) before they reach the scheduler, so a pool
 * whose every snapshot is stale is one the gateway's own scraping has fallen behind on, and refusing all its
 * traffic would turn a gateway hiccup into an outage.
 * <p>
 * Readiness here is the freshness of metrics alone. {@link Endpoint#isReady()}, the scraper's own flag, is not read:
 * an endpoint whose scrapes fail soon has a stale snapshot, and under {@code ignore} the operator has chosen to route
 * without fresh metrics.
 * <p>
 * Parameters, each defaulting to the global {@code infergate.scheduling.saturation.*} value:
 * {@code staleness-threshold}, {@code staleness-policy}.
 */
public final class ReadyFilter extends RetainingFilter {

	public static final String NAME = "ready";

	private final String name;

	private final SaturationDetector detector;

	/** The predefined instance, {@code ready}. */
	public ReadyFilter(SaturationDetector detector) {
		this(NAME, detector);
	}

	public ReadyFilter(String name, SaturationDetector detector) {
		super(true);
		this.name = name;
		this.detector = detector;
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	boolean keeps(SchedulingCycle cycle, Endpoint endpoint) {
		return detector.isReady(endpoint, cycle.nowMillis());
	}

	/**
	 * Parameters of {@code ready}; null for the global value.
	 *
	 * @param stalenessThreshold age above which a metrics snapshot is stale
	 * @param stalenessPolicy how stale or missing metrics are treated
	 */
	public record Parameters(@DurationMin(millis = 1) Duration stalenessThreshold, StalenessPolicy stalenessPolicy) {
	}

	/** The {@code ready} type. */
	@Component
	public static final class Type extends PluginType<EndpointFilter, Parameters> {

		private final SaturationDetector detector;

		public Type(SaturationDetector detector) {
			super(EndpointFilter.class, NAME, Parameters.class);
			this.detector = detector;
		}

		@Override
		public EndpointFilter create(String name, Parameters parameters) {
			return new ReadyFilter(name, new SaturationFilter.Parameters(null, null, parameters.stalenessThreshold(),
					parameters.stalenessPolicy(), null).detector(detector));
		}
	}
}
