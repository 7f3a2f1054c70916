package io.infergate.routing.scheduling;

import io.infergate.routing.endpoint.Endpoint;

/**
 * Told of every pick, so plugins with memory (the prefix index, session affinity) learn where requests went.
 * A plugin bean that also implements this interface is called once per decision of every profile that uses it;
 * plugins that share state must make their update idempotent within one cycle.
 */
public interface DispatchListener {

	void onDispatch(SchedulingCycle cycle, Endpoint chosen);
}
