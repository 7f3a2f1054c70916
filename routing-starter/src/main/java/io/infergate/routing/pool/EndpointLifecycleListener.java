package io.infergate.routing.pool;

import io.infergate.routing.endpoint.Endpoint;

/**
 * Told when discovery adds an endpoint to a pool or removes one (to start scraping it, purge its state, ...), and
 * when a configuration reload adds or removes a pool. A pool removed has its endpoints removed first, each told.
 */
public interface EndpointLifecycleListener {

	void endpointAdded(EndpointPool pool, Endpoint endpoint);

	void endpointRemoved(EndpointPool pool, Endpoint endpoint);

	/** A pool added while the gateway runs, still without endpoints. */
	default void poolAdded(EndpointPool pool) {
	}

	/** A pool removed while the gateway runs, once its endpoints have been removed. */
	default void poolRemoved(EndpointPool pool) {
	}
}
