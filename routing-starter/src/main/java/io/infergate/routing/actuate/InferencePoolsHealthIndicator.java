package io.infergate.routing.actuate;

import java.time.Clock;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

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
 * <p>
 * A pool that a configuration reload added counts only once it has had such an endpoint, so adding a pool does not
 * take running replicas out of service; a retiring pool (removed by a reload, draining) does not count.
 */
public class InferencePoolsHealthIndicator implements HealthIndicator {

	private final EndpointRegistry registry;

	private final SaturationDetector saturation;

	private final Clock clock;

	private final boolean requireFreshEndpoints;

	/** The pools that count: those configured at startup, and those added later once they have served. */
	private final Set<EndpointPool> counted = ConcurrentHashMap.newKeySet();

	public InferencePoolsHealthIndicator(EndpointRegistry registry, SaturationDetector saturation, Clock clock,
			boolean requireFreshEndpoints) {
		this.registry = registry;
		this.saturation = saturation;
		this.clock = clock;
		this.requireFreshEndpoints = requireFreshEndpoints;
		counted.addAll(registry.pools());
	}

	@Override
	public Health health() {
		long now = clock.millis();
		boolean allServed = true;
		Map<String, String> details = new LinkedHashMap<>();
		Collection<EndpointPool> pools = registry.pools();
		counted.retainAll(pools);
		for (EndpointPool pool : pools) {
			int fresh = 0;
			for (Endpoint endpoint : pool.endpoints()) {
				if (endpoint.isReady() && !saturation.isStale(endpoint, now)) {
					fresh++;
				}
			}
			String detail = fresh + " of " + pool.endpoints().size() + " endpoints ready with fresh metrics";
			if (pool.isRetiring()) {
				detail += " (retiring: removed from the configuration, draining)";
			}
			else if (fresh > 0) {
				counted.add(pool);
			}
			else if (counted.contains(pool)) {
				allServed = false;
			}
			else {
				detail += " (added by a reload; counts once it has one)";
			}
			details.put(pool.name(), detail);
		}
		Health.Builder health = (allServed || !requireFreshEndpoints) ? Health.up() : Health.outOfService();
		return health.withDetails(details).build();
	}
}
