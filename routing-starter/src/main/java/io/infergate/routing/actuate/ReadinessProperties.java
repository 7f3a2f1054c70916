package io.infergate.routing.actuate;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** {@code infergate.readiness.*}: what the {@code inferencePools} health indicator demands. */
@ConfigurationProperties("infergate.readiness")
public class ReadinessProperties {

	/**
	 * Report out of service until every pool has an endpoint that is ready with fresh metrics. Turn off to let
	 * traffic in while pools are still being discovered.
	 */
	private boolean requireFreshEndpoints = true;

	public boolean isRequireFreshEndpoints() {
		return requireFreshEndpoints;
	}

	public void setRequireFreshEndpoints(boolean requireFreshEndpoints) {
		this.requireFreshEndpoints = requireFreshEndpoints;
	}
}
