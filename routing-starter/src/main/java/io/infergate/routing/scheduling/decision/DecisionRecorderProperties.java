package io.infergate.routing.scheduling.decision;

import jakarta.validation.constraints.PositiveOrZero;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The {@link DecisionRecorder}'s limits, under {@code infergate.scheduling.decisions}.
 *
 * @param capacity decisions kept, the most recent first; default 100; 0 keeps none
 * @param maxPerSecond decisions recorded per second at most, the rest sampled out; default 50; 0 records none
 */
@Validated
@ConfigurationProperties("infergate.scheduling.decisions")
public record DecisionRecorderProperties(@DefaultValue("100") @PositiveOrZero int capacity,
		@DefaultValue("50") @PositiveOrZero int maxPerSecond) {
}
