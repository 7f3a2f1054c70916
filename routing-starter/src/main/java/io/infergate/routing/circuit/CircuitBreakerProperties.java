package io.infergate.routing.circuit;

import java.time.Duration;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;

import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Per-endpoint circuit breakers, {@code infergate.circuit-breaker.*}.
 *
 * @param enabled whether outcomes are recorded and open circuits filtered out
 * @param consecutiveConnectionFailures connection failures in a row (refused, reset or closed before an answer)
 * that open the circuit at once
 * @param failureRateThreshold the percentage of failures (connection failures and 5xx answers) among the last
 * {@code sliding-window-size} requests that opens the circuit, once {@code minimum-number-of-calls} were recorded
 * @param slidingWindowSize how many of an endpoint's latest requests the failure rate counts
 * @param minimumNumberOfCalls requests recorded before the failure rate is judged
 * @param waitDurationInOpenState how long an open circuit receives nothing before probes are let through
 * @param permittedCallsInHalfOpenState probes let through a half-open circuit; their failure rate closes it again or
 * opens it
 * @param maxWaitDurationInHalfOpenState how long a half-open circuit waits for its probes' outcomes before it opens
 * again (a probe whose outcome never comes must not hold the circuit half-open)
 */
@Validated
@ConfigurationProperties("infergate.circuit-breaker")
public record CircuitBreakerProperties(@DefaultValue("true") boolean enabled,
		@DefaultValue("5") @Positive int consecutiveConnectionFailures,
		@DefaultValue("50") @DecimalMin(value = "0", inclusive = false) @DecimalMax("100") float failureRateThreshold,
		@DefaultValue("20") @Positive int slidingWindowSize, @DefaultValue("10") @Positive int minimumNumberOfCalls,
		@DefaultValue("10s") @NotNull @DurationMin(millis = 1) Duration waitDurationInOpenState,
		@DefaultValue("3") @Positive int permittedCallsInHalfOpenState,
		@DefaultValue("60s") @NotNull @DurationMin(millis = 1) Duration maxWaitDurationInHalfOpenState) {

	public static CircuitBreakerProperties defaults() {
		return new CircuitBreakerProperties(true, 5, 50, 20, 10, Duration.ofSeconds(10), 3, Duration.ofSeconds(60));
	}
}
