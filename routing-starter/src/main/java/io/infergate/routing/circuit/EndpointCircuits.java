package io.infergate.routing.circuit;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.infergate.routing.endpoint.EndpointId;

/**
 * One circuit breaker per endpoint, from Resilience4j's state machine alone: no time limiter or reactive operator
 * wraps a request, so nothing here can cut a long stream. The gateway records each attempt's outcome once its
 * answer's headers arrive or it fails before them; the {@code circuit-breaker} scheduling filter asks whether an
 * endpoint may receive a request.
 * <ul>
 * <li><b>Closed</b>: everything passes. Opens when {@code failure-rate-threshold} percent of the last
 * {@code sliding-window-size} requests failed (a 5xx answer or a connection failure), after
 * {@code minimum-number-of-calls}, or at once after {@code consecutive-connection-failures} connection failures in a
 * row.</li>
 * <li><b>Open</b>: the endpoint receives nothing for {@code wait-duration-in-open-state}, then turns half-open.</li>
 * <li><b>Half-open</b>: {@code permitted-calls-in-half-open-state} probes pass; their failure rate closes the
 * circuit again or opens it.</li>
 * </ul>
 * An endpoint with no recorded outcome has no breaker yet, and passes. Thread-safe.
 */
public final class EndpointCircuits {

	private static final Log logger = LogFactory.getLog(EndpointCircuits.class);

	private final CircuitBreakerProperties properties;

	private final CircuitBreakerConfig config;

	private final ConcurrentHashMap<EndpointId, Circuit> circuits = new ConcurrentHashMap<>();

	public EndpointCircuits(CircuitBreakerProperties properties) {
		this.properties = properties;
		this.config = CircuitBreakerConfig.custom()
			.slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
			.slidingWindowSize(properties.slidingWindowSize())
			.minimumNumberOfCalls(properties.minimumNumberOfCalls())
			.failureRateThreshold(properties.failureRateThreshold())
			.waitDurationInOpenState(properties.waitDurationInOpenState())
			.permittedNumberOfCallsInHalfOpenState(properties.permittedCallsInHalfOpenState())
			.maxWaitDurationInHalfOpenState(properties.maxWaitDurationInHalfOpenState())
			.automaticTransitionFromOpenToHalfOpenEnabled(false)
			.writableStackTraceEnabled(false)
			.build();
	}

	public boolean enabled() {
		return properties.enabled();
	}

	/**
	 * Whether the endpoint may receive a request now. A half-open circuit hands out one of its probes, which the
	 * caller gives back with {@link #releasePermission} when it sends the request elsewhere.
	 */
	public boolean tryAcquirePermission(EndpointId endpoint) {
		Circuit circuit = circuits.get(endpoint);
		return circuit == null || circuit.breaker.tryAcquirePermission();
	}

	/** Whether {@link #tryAcquirePermission} handed out a probe that must be given back when unused. */
	public boolean isHalfOpen(EndpointId endpoint) {
		Circuit circuit = circuits.get(endpoint);
		return circuit != null && circuit.breaker.getState() == CircuitBreaker.State.HALF_OPEN;
	}

	public void releasePermission(EndpointId endpoint) {
		Circuit circuit = circuits.get(endpoint);
		if (circuit != null) {
			circuit.breaker.releasePermission();
		}
	}

	/** The endpoint answered with a status below 500. */
	public void recordSuccess(EndpointId endpoint, long elapsedNanos) {
		if (!enabled()) {
			return;
		}
		Circuit circuit = circuit(endpoint);
		circuit.consecutiveConnectionFailures.set(0);
		circuit.breaker.onSuccess(elapsedNanos, TimeUnit.NANOSECONDS);
	}

	/** The endpoint answered {@code status} (5xx). */
	public void recordServerError(EndpointId endpoint, long elapsedNanos, int status) {
		if (!enabled()) {
			return;
		}
		Circuit circuit = circuit(endpoint);
		circuit.consecutiveConnectionFailures.set(0);
		circuit.breaker.onError(elapsedNanos, TimeUnit.NANOSECONDS, new ServerErrorAnswer(status));
	}

	/** The endpoint could not be reached, or closed or reset the connection before answering. */
	public void recordConnectionFailure(EndpointId endpoint, long elapsedNanos, Throwable failure) {
		if (!enabled()) {
			return;
		}
		Circuit circuit = circuit(endpoint);
		circuit.breaker.onError(elapsedNanos, TimeUnit.NANOSECONDS, failure);
		if (circuit.consecutiveConnectionFailures.incrementAndGet() >= properties.consecutiveConnectionFailures()
				&& circuit.breaker.getState() != CircuitBreaker.State.OPEN) {
			circuit.consecutiveConnectionFailures.set(0);
			circuit.breaker.transitionToOpenState();
		}
	}

	/** {@code closed}, {@code open} or {@code half-open}, as the actuator shows it. */
	public String state(EndpointId endpoint) {
		Circuit circuit = circuits.get(endpoint);
		if (circuit == null) {
			return "closed";
		}
		return switch (circuit.breaker.getState()) {
			case OPEN, FORCED_OPEN -> "open";
			case HALF_OPEN -> "half-open";
			default -> "closed";
		};
	}

	private Circuit circuit(EndpointId endpoint) {
		return circuits.computeIfAbsent(endpoint, this::newCircuit);
	}

	private Circuit newCircuit(EndpointId endpoint) {
		CircuitBreaker breaker = CircuitBreaker.of(endpoint.toString(), config);
		breaker.getEventPublisher()
			.onStateTransition((event) -> logger.warn("Circuit of endpoint " + endpoint + ": "
					+ event.getStateTransition().getFromState() + " -> " + event.getStateTransition().getToState()));
		return new Circuit(breaker, new AtomicInteger());
	}

	private record Circuit(CircuitBreaker breaker, AtomicInteger consecutiveConnectionFailures) {
	}

	/** A 5xx answer, as the failure Resilience4j counts. */
	static final class ServerErrorAnswer extends RuntimeException {

		ServerErrorAnswer(int status) {
			super("answered " + status, null, false, false);
		}
	}
}
