package io.infergate.routing.scheduling.saturation;

import java.time.Duration;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;

import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Thresholds of the {@link SaturationDetector}, under {@code infergate.scheduling.saturation}. Defaults are those of
 * the llm-d utilization detector.
 *
 * @param queueDepthThreshold waiting requests above which an endpoint is saturated; default 5
 * @param kvCacheThreshold KV-cache usage (0..1] above which an endpoint is saturated; default 0.8
 * @param stalenessThreshold age above which a metrics snapshot is stale; default 200 ms
 * @param stalenessPolicy how stale or missing metrics are treated; default {@code saturated}
 * @param headroom burst allowance over both thresholds, as a fraction (0.2 = 20%); default 0.0
 */
@Validated
@ConfigurationProperties("infergate.scheduling.saturation")
public record SaturationProperties(@DefaultValue("5") @Positive int queueDepthThreshold,
		@DefaultValue("0.8") @DecimalMin(value = "0", inclusive = false) @DecimalMax("1") double kvCacheThreshold,
		@DefaultValue("200ms") @NotNull @DurationMin(millis = 1) Duration stalenessThreshold,
		@DefaultValue("saturated") @NotNull StalenessPolicy stalenessPolicy,
		@DefaultValue("0.0") @PositiveOrZero double headroom) {

	/**
	 * These properties with each non-null argument in place of its own: the thresholds of one {@code saturation} or
	 * {@code ready} filter instance.
	 */
	public SaturationProperties with(Integer queueDepthThreshold, Double kvCacheThreshold, Duration stalenessThreshold,
			StalenessPolicy stalenessPolicy, Double headroom) {
		return new SaturationProperties((queueDepthThreshold != null) ? queueDepthThreshold : this.queueDepthThreshold,
				(kvCacheThreshold != null) ? kvCacheThreshold : this.kvCacheThreshold,
				(stalenessThreshold != null) ? stalenessThreshold : this.stalenessThreshold,
				(stalenessPolicy != null) ? stalenessPolicy : this.stalenessPolicy,
				(headroom != null) ? headroom : this.headroom);
	}

	/** The llm-d defaults: queue 5, KV 0.8, 200 ms, {@code saturated}, no headroom. */
	public static SaturationProperties defaults() {
		return new SaturationProperties(5, 0.8, Duration.ofMillis(200), StalenessPolicy.SATURATED, 0.0);
	}
}
