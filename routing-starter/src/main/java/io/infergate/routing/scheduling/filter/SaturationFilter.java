package io.infergate.routing.scheduling.filter;

import java.time.Duration;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;

import org.hibernate.validator.constraints.time.DurationMin;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.EndpointFilter;
import io.infergate.routing.scheduling.PluginType;
import io.infergate.routing.scheduling.SchedulingCycle;
import io.infergate.routing.scheduling.saturation.SaturationDetector;
import io.infergate.routing.scheduling.saturation.SaturationProperties;
import io.infergate.routing.scheduling.saturation.StalenessPolicy;

import org.springframework.stereotype.Component;

/**
 * {@code saturation}: drops the endpoints the {@link SaturationDetector} finds saturated, that is with
 * {@code waiting > Q·(1+headroom)} or {@code kvCacheUsage > KV·(1+headroom)}, or stale under the {@code saturated}
 * staleness policy. Defaults: Q = 5 waiting requests, KV = 0.8, headroom 0.0 (see
 * {@code infergate.scheduling.saturation.*}).
 * <p>
 * If it would drop every candidate it keeps them all, so the scorers pick the least bad one (llm-d's fail-open
 * fallback); shedding a saturated pool is flow control's job, not the scheduler's.
 * <p>
 * Parameters, each defaulting to the global {@code infergate.scheduling.saturation.*} value that flow control also reads:
 * {@code queue-depth-threshold}, {@code kv-cache-threshold}, {@code staleness-threshold}, {@code staleness-policy},
 * {@code headroom}. An instance given none shares the global detector.
 */
public final class SaturationFilter extends RetainingFilter {

	public static final String NAME = "saturation";

	private final String name;

	private final SaturationDetector detector;

	/** The predefined instance, {@code saturation}. */
	public SaturationFilter(SaturationDetector detector) {
		this(NAME, detector);
	}

	public SaturationFilter(String name, SaturationDetector detector) {
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
		return !detector.isSaturated(endpoint, cycle.nowMillis());
	}

	/**
	 * Parameters of {@code saturation}; null for the global value.
	 *
	 * @param queueDepthThreshold waiting requests above which an endpoint is saturated
	 * @param kvCacheThreshold KV-cache usage (0..1] above which an endpoint is saturated
	 * @param stalenessThreshold age above which a metrics snapshot is stale
	 * @param stalenessPolicy how stale or missing metrics are treated
	 * @param headroom burst allowance over both thresholds, as a fraction
	 */
	public record Parameters(@Positive Integer queueDepthThreshold,
			@DecimalMin(value = "0", inclusive = false) @DecimalMax("1") Double kvCacheThreshold,
			@DurationMin(millis = 1) Duration stalenessThreshold, StalenessPolicy stalenessPolicy,
			@PositiveOrZero Double headroom) {

		SaturationDetector detector(SaturationDetector global) {
			if (queueDepthThreshold == null && kvCacheThreshold == null && stalenessThreshold == null
					&& stalenessPolicy == null && headroom == null) {
				return global;
			}
			SaturationProperties properties = global.properties();
			return new SaturationDetector(properties.with(queueDepthThreshold, kvCacheThreshold, stalenessThreshold,
					stalenessPolicy, headroom));
		}
	}

	/** The {@code saturation} type. */
	@Component
	public static final class Type extends PluginType<EndpointFilter, Parameters> {

		private final SaturationDetector detector;

		public Type(SaturationDetector detector) {
			super(EndpointFilter.class, NAME, Parameters.class);
			this.detector = detector;
		}

		@Override
		public EndpointFilter create(String name, Parameters parameters) {
			return new SaturationFilter(name, parameters.detector(detector));
		}
	}
}
