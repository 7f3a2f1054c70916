package io.infergate.routing.scheduling.filter;

import java.util.ArrayList;
import java.util.List;

import io.infergate.routing.circuit.EndpointCircuits;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.DispatchListener;
import io.infergate.routing.scheduling.EndpointFilter;
import io.infergate.routing.scheduling.PluginType;
import io.infergate.routing.scheduling.SchedulingCycle;

import org.springframework.stereotype.Component;

/**
 * {@code circuit-breaker}: drops the endpoints whose circuit is open ({@link EndpointCircuits}), and lets a
 * half-open one through while it has a probe left. A probe taken for an endpoint the picker then passes over is
 * given back at the pick. When every circuit is open nothing is left: the pool's failure mode decides.
 */
public final class CircuitBreakerFilter extends RetainingFilter implements DispatchListener {

	public static final String NAME = "circuit-breaker";

	private static final SchedulingCycle.Key<List<Endpoint>> PROBES = new SchedulingCycle.Key<>("circuit-probes");

	private final String name;

	private final EndpointCircuits circuits;

	/** The predefined instance, {@code circuit-breaker}. */
	public CircuitBreakerFilter(EndpointCircuits circuits) {
		this(NAME, circuits);
	}

	/** Every instance reads and takes probes from the one {@link EndpointCircuits} the gateway records outcomes in. */
	public CircuitBreakerFilter(String name, EndpointCircuits circuits) {
		super(false);
		this.name = name;
		this.circuits = circuits;
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	boolean keeps(SchedulingCycle cycle, Endpoint endpoint) {
		if (!circuits.tryAcquirePermission(endpoint.id())) {
			return false;
		}
		if (circuits.isHalfOpen(endpoint.id())) {
			cycle.computeIfAbsent(PROBES, (c) -> new ArrayList<>(2)).add(endpoint);
		}
		return true;
	}

	@Override
	public void onDispatch(SchedulingCycle cycle, Endpoint chosen) {
		List<Endpoint> probes = cycle.get(PROBES);
		if (probes == null) {
			return;
		}
		for (Endpoint probe : probes) {
			if (probe != chosen) {
				circuits.releasePermission(probe.id());
			}
		}
		probes.clear();
	}

	/** The {@code circuit-breaker} type. */
	@Component
	public static final class Type extends PluginType.WithoutParameters<EndpointFilter> {

		public Type(EndpointCircuits circuits) {
			super(EndpointFilter.class, NAME, (name) -> new CircuitBreakerFilter(name, circuits));
		}
	}
}
