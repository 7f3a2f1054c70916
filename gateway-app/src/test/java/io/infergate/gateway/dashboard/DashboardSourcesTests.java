package io.infergate.gateway.dashboard;

import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.infergate.admin.source.FlowControlQueueSource.FlowControlQueue;
import io.infergate.routing.limits.Caller;
import io.infergate.routing.circuit.CircuitBreakerProperties;
import io.infergate.routing.circuit.EndpointCircuits;
import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.flowcontrol.FlowControlProperties;
import io.infergate.routing.flowcontrol.FlowController;
import io.infergate.routing.flowcontrol.FlowTicket;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.PoolProperties;

import static org.assertj.core.api.Assertions.assertThat;

/** What the dashboard shows of flow control and of the circuit breakers, read from the running parts. */
class DashboardSourcesTests {

	private final AtomicBoolean room = new AtomicBoolean(true);

	private final FlowController controller = new FlowController(registry(),
			(ready, requests, tokens, now) -> room.get(), FlowControlProperties.defaults(true), Clock.systemUTC(),
			new SimpleMeterRegistry());

	private static EndpointRegistry registry() {
		PoolProperties.Pool pool = PoolProperties.Pool.of(List.of(URI.create("http://10.0.0.1:8000")), null);
		EndpointRegistry registry = new EndpointRegistry(Map.of("llama", pool));
		registry.sync("llama", pool.endpoints());
		registry.pool("llama").endpoints().forEach((endpoint) -> endpoint.setReady(true));
		return registry;
	}

	@Test
	void eachPoolIsAQueueWithItsWaitingRequestsItsInFlightAndItsBands() {
		FlowTicket running = controller.enqueue("llama", new Caller("k", "team-a", 0, 1), 300, 100, 500, null);
		room.set(false);
		controller.enqueue("llama", new Caller("k", "team-a", 0, 1), 200, 100, 400, null);
		controller.enqueue("llama", new Caller("k", "team-b", 0, 1), 200, 100, 600, null);

		List<FlowControlQueue> queues = new FlowControlDashboardSource(controller).queues();

		assertThat(running.decision()).isCompleted();
		assertThat(queues).singleElement().satisfies((queue) -> {
			assertThat(queue.name()).isEqualTo("llama");
			assertThat(queue.waiting()).isEqualTo(2);
			assertThat(queue.figures()).containsEntry("in flight", 1)
				.containsEntry("in-flight tokens", 300L)
				.containsEntry("waiting bytes", 1000L)
				.containsEntry("waiting at priority 0", 2);
		});
	}

	@Test
	void aCardShowsItsEndpointsCircuitAndNoneWhileBreakersAreOff() {
		EndpointCircuits circuits = new EndpointCircuits(CircuitBreakerProperties.defaults());
		EndpointId bad = EndpointId.parse("10.0.0.2:8000");
		for (int i = 0; i < 5; i++) {
			circuits.recordConnectionFailure(bad, 1_000_000, new IOException("refused"));
		}
		CircuitDashboardSource source = new CircuitDashboardSource(circuits);

		assertThat(source.state("llama", "10.0.0.2:8000")).isEqualTo("open");
		assertThat(source.state("llama", "10.0.0.1:8000")).isEqualTo("closed");
		CircuitBreakerProperties d = CircuitBreakerProperties.defaults();
		CircuitBreakerProperties off = new CircuitBreakerProperties(false, d.consecutiveConnectionFailures(),
				d.failureRateThreshold(), d.slidingWindowSize(), d.minimumNumberOfCalls(), d.waitDurationInOpenState(),
				d.permittedCallsInHalfOpenState(), d.maxWaitDurationInHalfOpenState());
		assertThat(new CircuitDashboardSource(new EndpointCircuits(off)).state("llama", "10.0.0.2:8000")).isNull();
	}
}
