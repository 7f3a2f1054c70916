package io.infergate.bench.quality.replay;

import java.time.Clock;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import io.infergate.routing.flowcontrol.FlowControlProperties;
import io.infergate.routing.flowcontrol.FlowController;
import io.infergate.routing.flowcontrol.PoolCapacity;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.scheduling.autoconfigure.SchedulingAutoConfiguration;
import io.infergate.routing.scheduling.saturation.SaturationDetector;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The routing side of one replay: the scheduling auto-configuration exactly as the gateway gets it (every built-in
 * plugin, the shipped profiles, validation), flow control as the gateway builds it (the same
 * {@code infergate.flow-control.*} properties and defaults, and the scheduling's {@link SaturationDetector} as its
 * capacity signal), plus the bench-only oracle scorer. The replay registers the virtual {@link Clock}, the
 * {@link EndpointRegistry} and the {@link PrefixCacheOracle} before the context refreshes.
 */
@Configuration(proxyBeanMethods = false)
@ImportAutoConfiguration(SchedulingAutoConfiguration.class)
@EnableConfigurationProperties(FlowControlProperties.class)
class BenchRoutingConfiguration {

	@Bean
	OraclePrefixCacheScorer oraclePrefixCacheScorer(PrefixCacheOracle oracle) {
		return new OraclePrefixCacheScorer(oracle);
	}

	/** The gateway's flow controller, swept by the replay's event loop instead of a timer thread. */
	@Bean
	FlowController flowController(EndpointRegistry registry, FlowControlProperties properties,
			SaturationDetector saturation, Clock clock) {
		return new FlowController(registry, PoolCapacity.of(properties, saturation), properties, clock,
				new SimpleMeterRegistry());
	}
}
