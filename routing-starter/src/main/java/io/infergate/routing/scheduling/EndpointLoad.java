package io.infergate.routing.scheduling;

import io.infergate.routing.endpoint.Endpoint;

/**
 * How many requests an endpoint is busy with, as this gateway replica can know it. A profile names one
 * ({@code load:} in its YAML, {@code in-flight} when it names none); the plugins that weigh load
 * ({@code least-request}, {@code estimated-ttft}, {@code chwbl}'s bound) read it through
 * {@link SchedulingCycle#load(Endpoint)}, so one profile can swap what "busy" means without new scorers.
 * <p>
 * A gateway replica sees only the requests it sent itself; how an implementation makes up for the other replicas'
 * requests is what tells them apart. Implementations are called on the hot path: no locks, no allocation.
 */
public interface EndpointLoad extends SchedulingPlugin {

	/** The endpoint's requests, never negative. */
	int requests(Endpoint endpoint);
}
