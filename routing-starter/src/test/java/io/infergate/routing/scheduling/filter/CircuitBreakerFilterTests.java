package io.infergate.routing.scheduling.filter;

import java.net.ConnectException;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.infergate.routing.circuit.CircuitBreakerProperties;
import io.infergate.routing.circuit.EndpointCircuits;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.SchedulingCycle;

import static io.infergate.routing.scheduling.Fixtures.cycle;
import static io.infergate.routing.scheduling.Fixtures.endpoint;
import static org.assertj.core.api.Assertions.assertThat;

class CircuitBreakerFilterTests {

	private final EndpointCircuits circuits = new EndpointCircuits(
			new CircuitBreakerProperties(true, 1, 50, 10, 4, Duration.ofMillis(50), 1, Duration.ofSeconds(60)));

	private final CircuitBreakerFilter filter = new CircuitBreakerFilter(circuits);

	private void open(Endpoint endpoint) {
		circuits.recordConnectionFailure(endpoint.id(), 1000, new ConnectException("refused"));
	}

	@Test
	void nameIsTheYamlKey() {
		assertThat(filter.name()).isEqualTo(CircuitBreakerFilter.NAME).isEqualTo("circuit-breaker");
	}

	@Test
	void dropsEndpointsWhoseCircuitIsOpen() {
		Endpoint failing = endpoint(1, 0, 0, 0.1);
		Endpoint healthy = endpoint(2, 0, 0, 0.1);
		open(failing);

		assertThat(filter.filter(cycle(), List.of(failing, healthy))).containsExactly(healthy);
	}

	@Test
	void leavesNoCandidateWhenEveryCircuitIsOpen() {
		Endpoint failing = endpoint(1, 0, 0, 0.1);
		open(failing);

		assertThat(filter.filter(cycle(), List.of(failing))).isEmpty();
	}

	@Test
	void givesBackTheProbeOfAHalfOpenEndpointThePickerPassedOver() throws InterruptedException {
		Endpoint recovering = endpoint(1, 0, 0, 0.1);
		Endpoint healthy = endpoint(2, 0, 0, 0.1);
		open(recovering);
		Thread.sleep(80);
		SchedulingCycle cycle = cycle();
		assertThat(filter.filter(cycle, List.of(recovering, healthy))).containsExactly(recovering, healthy);

		filter.onDispatch(cycle, healthy);

		// its only probe is free again
		assertThat(filter.filter(cycle(), List.of(recovering))).containsExactly(recovering);
	}
}
