package io.infergate.routing.actuate;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code infergate.readiness.*}: what the {@code inferencePools} health indicator demands.
 *
 * @param requireFreshEndpoints Report out of service until every pool has an endpoint that is ready with fresh
 * metrics. Turn off to let traffic in while pools are still being discovered.
 */
@ConfigurationProperties("infergate.readiness")
public record ReadinessProperties(@DefaultValue("true") boolean requireFreshEndpoints) {
}
