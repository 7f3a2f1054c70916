package io.infergate.routing.flowcontrol;

import java.time.Duration;
import java.util.Map;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;

import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Flow control, {@code infergate.flow-control.*}: when requests wait at the gateway, in which order they leave, and
 * how much may wait.
 *
 * @param enabled whether requests wait while their pool is saturated; when off, every request is dispatched at once
 * @param detector what "saturated" means: {@code saturation} (every ready endpoint over the saturation detector's
 * thresholds, {@code infergate.scheduling.saturation.*}) or {@code concurrency} (the pool's requests or tokens in
 * flight from this gateway reach {@code max-requests-per-endpoint} or {@code max-tokens-per-endpoint} times its ready
 * endpoints)
 * @param maxRequestsPerEndpoint the concurrency detector's requests per ready endpoint; 0 = not limited
 * @param maxTokensPerEndpoint the concurrency detector's estimated tokens per ready endpoint; 0 = not limited
 * @param bandPolicy {@code strict}: the highest priority band with a waiting request goes first; {@code weighted}:
 * bands share dispatches in proportion to {@code band-weights}, so low bands are never starved
 * @param bandWeights weight of each priority under {@code weighted}; a priority not listed weighs 1
 * @param fairness within a band: {@code round-robin} (one request per tenant in turn) or {@code tokens} (the tenant
 * with the fewest tokens served, divided by its weight, goes next: a virtual token counter)
 * @param maxQueuedRequests requests waiting in one pool, all bands together
 * @param maxQueuedBytes request bytes waiting in one pool, all bands together
 * @param maxQueuedRequestsPerBand requests waiting in one band of one pool
 * @param maxQueuedBytesPerBand request bytes waiting in one band of one pool
 * @param defaultTtl how long a request waits before it is answered 429 {@code ttl-expired}
 * @param maxTtl the longest wait a client may ask for with {@code x-infergate-queue-ttl-ms}
 * @param sweepInterval how often waiting requests are checked for expiry and for capacity the metrics revealed
 */
@Validated
@ConfigurationProperties("infergate.flow-control")
public record FlowControlProperties(@DefaultValue("true") boolean enabled,
		@DefaultValue("saturation") @NotNull Detector detector,
		@DefaultValue("0") @PositiveOrZero int maxRequestsPerEndpoint,
		@DefaultValue("0") @PositiveOrZero long maxTokensPerEndpoint,
		@DefaultValue("strict") @NotNull BandPolicy bandPolicy, Map<Integer, @Positive Double> bandWeights,
		@DefaultValue("tokens") @NotNull Fairness fairness,
		@DefaultValue("2000") @Positive int maxQueuedRequests,
		@DefaultValue("256MB") @NotNull DataSize maxQueuedBytes,
		@DefaultValue("1000") @Positive int maxQueuedRequestsPerBand,
		@DefaultValue("128MB") @NotNull DataSize maxQueuedBytesPerBand,
		@DefaultValue("30s") @NotNull @DurationMin(millis = 1) Duration defaultTtl,
		@DefaultValue("5m") @NotNull @DurationMin(millis = 1) Duration maxTtl,
		@DefaultValue("10ms") @NotNull @DurationMin(millis = 1) Duration sweepInterval) {

	public FlowControlProperties {
		bandWeights = (bandWeights != null) ? Map.copyOf(bandWeights) : Map.of();
	}

	/** The defaults, with flow control on or off. */
	public static FlowControlProperties defaults(boolean enabled) {
		return new FlowControlProperties(enabled, Detector.SATURATION, 0, 0, BandPolicy.STRICT, Map.of(),
				Fairness.TOKENS, 2000, DataSize.ofMegabytes(256), 1000, DataSize.ofMegabytes(128),
				Duration.ofSeconds(30), Duration.ofMinutes(5), Duration.ofMillis(10));
	}

	/** The weight of band {@code priority} under the weighted policy. */
	public double bandWeight(int priority) {
		Double weight = bandWeights.get(priority);
		return (weight != null) ? weight : 1.0;
	}

	public enum Detector {

		SATURATION, CONCURRENCY
	}

	public enum BandPolicy {

		STRICT, WEIGHTED
	}

	public enum Fairness {

		ROUND_ROBIN, TOKENS
	}
}
