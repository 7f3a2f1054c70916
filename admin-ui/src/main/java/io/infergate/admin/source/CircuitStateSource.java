package io.infergate.admin.source;

/**
 * Each endpoint's circuit-breaker state, shown on its card. The circuit breakers provide it as a bean; without
 * one the cards show no circuit.
 */
@FunctionalInterface
public interface CircuitStateSource {

	/** The state of the endpoint's circuit, such as {@code closed}, {@code open} or {@code half-open}, or {@code null}. */
	String state(String pool, String endpoint);
}
