package io.infergate.bench.quality.replay;

import io.infergate.routing.scheduling.autoconfigure.SchedulingAutoConfiguration;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The routing side of one replay: the scheduling auto-configuration exactly as the gateway gets it (every built-in
 * plugin, the shipped profiles, validation), plus the bench-only oracle scorer. The replay registers the virtual
 * {@link java.time.Clock}, the {@link io.infergate.routing.pool.EndpointRegistry} and the {@link PrefixCacheOracle}
 * before the context refreshes.
 */
@Configuration(proxyBeanMethods = false)
@ImportAutoConfiguration(SchedulingAutoConfiguration.class)
class BenchRoutingConfiguration {

	@Bean
	OraclePrefixCacheScorer oraclePrefixCacheScorer(PrefixCacheOracle oracle) {
		return new OraclePrefixCacheScorer(oracle);
	}
}
