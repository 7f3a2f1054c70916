package io.infergate.gateway.route;

import java.time.Duration;

import io.infergate.routing.pool.EndpointPool;
import io.infergate.routing.pool.EndpointRegistry;

/**
 * Each pool's limits on a slow model server ({@code infergate.pools.<name>.timeouts}), read from the pool's
 * settings when an attempt starts, so a configuration reload applies to the next attempt.
 */
public final class PoolTimeouts {

	private final EndpointRegistry registry;

	public PoolTimeouts(EndpointRegistry registry) {
		this.registry = registry;
	}

	/** The longest wait for an attempt's response headers, or {@code null} for the HTTP client's own limit. */
	Duration firstByte(String pool) {
		EndpointPool endpoints = registry.pool(pool);
		return (endpoints != null) ? endpoints.settings().timeouts().firstByte() : null;
	}

	/** The longest silence between stream events, or {@code null} for none. */
	Duration streamIdle(String pool) {
		EndpointPool endpoints = registry.pool(pool);
		return (endpoints != null) ? endpoints.settings().timeouts().streamIdle() : null;
	}
}
