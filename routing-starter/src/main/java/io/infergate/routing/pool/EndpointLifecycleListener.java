package io.infergate.routing.pool;

import io.infergate.routing.endpoint.Endpoint;

/** Told when discovery adds an endpoint to a pool or removes one (to start scraping it, purge its state, ...). */
public interface EndpointLifecycleListener {

	void endpointAdded(EndpointPool pool, Endpoint endpoint);

	void endpointRemoved(EndpointPool pool, Endpoint endpoint);
}
