package io.infergate.routing.scheduling;

import java.util.List;

import io.infergate.routing.endpoint.Endpoint;

/** Narrows the candidates before scoring. */
public interface EndpointFilter extends SchedulingPlugin {

	/**
	 * Returns the candidates that pass, in their original order. Returns {@code candidates} itself when all pass,
	 * so the common case allocates nothing. Never returns {@code null}; may return an empty list.
	 */
	List<Endpoint> filter(SchedulingCycle cycle, List<Endpoint> candidates);
}
