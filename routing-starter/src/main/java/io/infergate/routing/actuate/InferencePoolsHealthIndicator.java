package io.infergate.routing.actuate;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.pool.EndpointPool;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.scheduling.saturation.SaturationDetector;

/**
 * UP only when every pool has at least one endpoint that is ready and whose metrics are fresh. In the readiness
 * group it keeps traffic away from a gateway that would have to route blind, such as one that has just started
 * and not yet scraped its pools.
 */
public class InferencePoolsHealthIndicator implements HealthIndicator {

	private final EndpointRegistry registry;

	private final SaturationDetector saturation;

	private final Clock clock;

	private final boolean requireFreshEndpoints;

	public InferencePoolsHealthIndicator(EndpointRegistry registry, SaturationDetector saturation, Clock clock,
			boolean requireFreshEndpoints) {
		this.registry = registry;
		this.saturation = saturation;
		this.clock = clock;
		this.requireFreshEndpoints = requireFreshEndpoints;
	}

	@Override
	public Health health() {
		long now = clock.millis();
		boolean allServed = true;
		Map<String, String> details = new LinkedHashMap<>();
		for (EndpointPool pool : registry.pools()) {
			int fresh = 0;
			for (Endpoint endpoint : pool.endpoints()) {
				if (endpoint.isReady() && !saturation.isStale(endpoint, now)) {
					fresh++;
				}
			}
			allServed &= fresh > 0;
			details.put(pool.name(), fresh + " of " + pool.endpoints().size() + " endpoints ready with fresh metrics");
		}
		Health.Builder health = (allServed || !requireFreshEndpoints) ? Health.up() : Health.outOfService();
		return health.withDetails(details).build();
	}
}
