package io.infergate.routing.autoconfigure;

import java.time.Clock;
import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.client.discovery.ReactiveDiscoveryClient;
import org.springframework.cloud.loadbalancer.annotation.LoadBalancerClients;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

import io.infergate.routing.tokenization.PreciseTokenizerCheck;
import io.infergate.routing.tokenization.Tokenizers;
import io.infergate.routing.InferenceRouter;
import io.infergate.routing.actuate.InferenceEndpoint;
import io.infergate.routing.actuate.InferenceModelsContributor;
import io.infergate.routing.limits.RateLimiter;
import io.infergate.routing.actuate.InferencePoolsHealthIndicator;
import io.infergate.routing.actuate.ReadinessProperties;
import io.infergate.routing.circuit.EndpointCircuits;
import io.infergate.routing.config.ConfigurationCheck;
import io.infergate.routing.config.InvalidConfigurationException;
import io.infergate.routing.discovery.InferencePoolSource;
import io.infergate.routing.discovery.PoolEndpointSynchronizer;
import io.infergate.routing.flowcontrol.FlowControlLifecycle;
import io.infergate.routing.flowcontrol.FlowControlProperties;
import io.infergate.routing.engine.LiveConfiguration;
import io.infergate.routing.flowcontrol.FlowController;
import io.infergate.routing.flowcontrol.PoolCapacity;
import io.infergate.routing.discovery.PoolInstanceSuppliers;
import io.infergate.routing.kvevents.KvEventSubscriber;
import io.infergate.routing.kvevents.KvEventSubscriptions;
import io.infergate.routing.loadbalancer.InfergateLoadBalancerClientConfiguration;
import io.infergate.routing.metrics.EndpointScraping;
import io.infergate.routing.metrics.MetricsScrapers;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.PoolProfilesCheck;
import io.infergate.routing.pool.PoolProperties;
import io.infergate.routing.pool.PoolTimeoutsCheck;
import io.infergate.routing.prefix.EngineBlockIndex;
import io.infergate.routing.prefix.EngineBlockIndexConfiguration;
import io.infergate.routing.prefix.PrefixIndex;
import io.infergate.routing.replica.DispatchSharing;
import io.infergate.routing.scheduling.ProfileResolver;
import io.infergate.routing.scheduling.Scheduler;
import io.infergate.routing.scheduling.autoconfigure.SchedulingAutoConfiguration;
import io.infergate.routing.scheduling.config.SchedulingProfiles;
import io.infergate.routing.scheduling.decision.DecisionRecorder;
import io.infergate.routing.scheduling.saturation.SaturationDetector;

/**
 * Pools, their endpoints, the router, and Infergate's load balancer for every pool; the KV-cache event subscriptions
 * of pools that enable them, feeding the {@link EngineBlockIndex}.
 */
@AutoConfiguration(after = SchedulingAutoConfiguration.class)
@EnableConfigurationProperties({ PoolProperties.class, ReadinessProperties.class, FlowControlProperties.class })
@Import(EngineBlockIndexConfiguration.class)
@LoadBalancerClients(defaultConfiguration = InfergateLoadBalancerClientConfiguration.class)
public class RoutingAutoConfiguration {

	/** First among the checks: pools are what everything else names. */
	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE)
	PoolProfilesCheck poolProfilesCheck(PoolProperties properties, SchedulingProfiles profiles) {
		return new PoolProfilesCheck(properties, profiles.names());
	}

	@Bean
	PreciseTokenizerCheck preciseTokenizerCheck(PoolProperties properties, SchedulingProfiles profiles) {
		return new PreciseTokenizerCheck(properties, profiles);
	}

	@Bean
	PoolTimeoutsCheck poolTimeoutsCheck(PoolProperties properties) {
		return new PoolTimeoutsCheck(properties);
	}

	/**
	 * The pools, created only once every {@link ConfigurationCheck} of the application passes, so a start with bad
	 * names fails with all of them listed and before any pool is scraped or routed to.
	 */
	@Bean
	EndpointRegistry endpointRegistry(PoolProperties properties, ObjectProvider<ConfigurationCheck> checks) {
		InvalidConfigurationException.throwIfAny(checks.orderedStream().toList());
		return new EndpointRegistry(properties.pools());
	}

	@Bean(destroyMethod = "close")
	MetricsScrapers metricsScrapers(ObjectProvider<MeterRegistry> meterRegistry, Clock clock) {
		return new MetricsScrapers(meterRegistry.getIfUnique(SimpleMeterRegistry::new), clock);
	}

	@Bean
	EndpointScraping endpointScraping(EndpointRegistry registry, MetricsScrapers scrapers) {
		return new EndpointScraping(registry, scrapers);
	}

	@Bean(destroyMethod = "close")
	KvEventSubscriptions kvEventSubscriptions(EndpointRegistry registry, EngineBlockIndex engineBlocks) {
		return new KvEventSubscriptions(registry, new KvEventSubscriber(engineBlocks));
	}

	@Bean
	InferenceRouter inferenceRouter(EndpointRegistry registry, ProfileResolver profiles, Scheduler scheduler,
			DecisionRecorder decisions, Clock clock) {
		return new InferenceRouter(registry, profiles, scheduler, decisions, clock);
	}

	@Bean
	FlowController flowController(EndpointRegistry registry, FlowControlProperties properties,
			SaturationDetector saturation, Clock clock, ObjectProvider<MeterRegistry> meterRegistry) {
		return new FlowController(registry, PoolCapacity.of(properties, saturation), properties, clock,
				meterRegistry.getIfUnique(SimpleMeterRegistry::new));
	}

	@Bean
	FlowControlLifecycle flowControlLifecycle(FlowController controller) {
		return new FlowControlLifecycle(controller);
	}

	@Bean
	PoolEndpointSynchronizer poolEndpointSynchronizer(EndpointRegistry registry,
			ObjectProvider<ReactiveDiscoveryClient> discovery, ObjectProvider<InferencePoolSource> inferencePools) {
		return new PoolEndpointSynchronizer(registry, (name, pool) -> PoolInstanceSuppliers.forPool(name, pool,
				discovery.getIfAvailable(), inferencePools.getIfAvailable()));
	}

	@Bean
	@ConditionalOnAvailableEndpoint
	InferenceEndpoint inferenceEndpoint(EndpointRegistry registry, SchedulingProfiles profiles,
			DecisionRecorder decisions, SaturationDetector saturation, Clock clock,
			ObjectProvider<PrefixIndex> prefixIndex, ObjectProvider<InferenceModelsContributor> models,
			ObjectProvider<RateLimiter> rateLimiter, ObjectProvider<DispatchSharing> dispatchSharing,
			EndpointCircuits circuits, FlowController flowControl, ObjectProvider<LiveConfiguration> configuration,
			ObjectProvider<Tokenizers> tokenizers) {
		return new InferenceEndpoint(registry, profiles, decisions, saturation, clock, prefixIndex.getIfAvailable(),
				models.getIfAvailable(() -> List::of), rateLimiter.getIfAvailable(), dispatchSharing.getIfAvailable(),
				circuits, flowControl, () -> {
					LiveConfiguration live = configuration.getIfAvailable();
					return (live != null) ? live.status() : null;
				}, tokenizers.getIfAvailable(() -> Tokenizers.NONE));
	}

	@Bean
	InferencePoolsHealthIndicator inferencePoolsHealthIndicator(EndpointRegistry registry,
			SaturationDetector saturation, Clock clock, ReadinessProperties readiness) {
		return new InferencePoolsHealthIndicator(registry, saturation, clock, readiness.requireFreshEndpoints());
	}
}
