package io.infergate.routing.scheduling.filter;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.SchedulingCycle;
import io.infergate.routing.scheduling.saturation.SaturationDetector;

import org.springframework.stereotype.Component;

/**
 * {@code saturation}: drops the endpoints the {@link SaturationDetector} finds saturated, that is with
 * {@code waiting > Q·(1+headroom)} or {@code kvCacheUsage > KV·(1+headroom)}, or stale under the {@code saturated}
 * staleness policy. Defaults: Q = 5 waiting requests, KV = 0.8, headroom 0.0 (see
 * {@code infergate.scheduling.saturation.*}).
 * <p>
 * If it would drop every candidate it keeps them all, so the scorers pick the least bad one (llm-d's fail-open
 * fallback); shedding a saturated pool is admission's job, not the scheduler's.
 */
@Component
public final class SaturationFilter extends RetainingFilter {

	public static final String NAME = "saturation";

	private final SaturationDetector detector;

	public SaturationFilter(SaturationDetector detector) {
		super(true);
		this.detector = detector;
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	boolean keeps(SchedulingCycle cycle, Endpoint endpoint) {
		return !detector.isSaturated(endpoint, cycle.nowMillis());
	}
}
