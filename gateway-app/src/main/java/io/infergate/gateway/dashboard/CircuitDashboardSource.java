package io.infergate.gateway.dashboard;

import io.infergate.admin.source.CircuitStateSource;
import io.infergate.routing.circuit.EndpointCircuits;
import io.infergate.routing.endpoint.EndpointId;

/** Each endpoint card's circuit: {@code closed}, {@code open} or {@code half-open}; none while breakers are off. */
public class CircuitDashboardSource implements CircuitStateSource {

	private final EndpointCircuits circuits;

	public CircuitDashboardSource(EndpointCircuits circuits) {
		this.circuits = circuits;
	}

	@Override
	public String state(String pool, String endpoint) {
		if (!circuits.enabled()) {
			return null;
		}
		return circuits.state(EndpointId.parse(endpoint));
	}
}
