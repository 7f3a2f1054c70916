package io.infergate.routing.scheduling.load;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.EndpointLoad;

import org.springframework.stereotype.Component;

/**
 * {@code in-flight}: the requests this gateway replica has sent to the endpoint and not yet seen finish
 * ({@link Endpoint#inFlightRequests()}). Fresh at every dispatch, and exact while one replica sends all the traffic;
 * with N replicas behind a plain load balancer it counts about 1/N of the endpoint's requests. The load of every
 * profile that names none.
 */
@Component
public final class InFlightLoad implements EndpointLoad {

	public static final String NAME = "in-flight";

	/** For cycles that run outside a profile (plugin tests, benchmarks). */
	public static final InFlightLoad INSTANCE = new InFlightLoad();

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public int requests(Endpoint endpoint) {
		return Math.max(0, endpoint.inFlightRequests());
	}
}
