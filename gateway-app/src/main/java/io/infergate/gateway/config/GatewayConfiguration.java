package io.infergate.gateway.config;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.cloud.gateway.config.GatewayLoadBalancerProperties;
import org.springframework.cloud.loadbalancer.support.LoadBalancerClientFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.web.reactive.function.client.WebClient;

import io.infergate.gateway.dashboard.CircuitDashboardSource;
import io.infergate.gateway.dashboard.FlowControlDashboardSource;
import io.infergate.gateway.error.OpenAiErrorWebExceptionHandler;
import io.infergate.gateway.filter.CircuitOutcomeFilter;
import io.infergate.gateway.filter.DispatchFilter;
import io.infergate.gateway.filter.FlowControlFilter;
import io.infergate.gateway.filter.ForwardedHeadersFilter;
import io.infergate.gateway.filter.InferenceHeadersFilters;
import io.infergate.gateway.filter.ModelFallbackFilter;
import io.infergate.gateway.filter.ObserveFilter;
import io.infergate.gateway.filter.PoolRouteFilter;
import io.infergate.gateway.filter.PoolTimeouts;
import io.infergate.gateway.filter.PoolTimeoutsCheck;
import io.infergate.gateway.filter.ReadRequestFilter;
import io.infergate.gateway.filter.ResolveModelFilter;
import io.infergate.gateway.filter.ServedByFilter;
import io.infergate.gateway.filter.UpstreamRetryFilter;
import io.infergate.gateway.loadbalancer.InferenceLoadBalancerClientFilter;
import io.infergate.gateway.model.ConfiguredModels;
import io.infergate.gateway.auth.ApiKeys;
import io.infergate.gateway.model.ModelCatalog;
import io.infergate.gateway.model.ModelCatalogDashboardSource;
import io.infergate.gateway.model.ModelProperties;
import io.infergate.gateway.model.ModelsHandler;
import io.infergate.gateway.model.ServedModels;
import io.infergate.gateway.observe.AccessLog;
import io.infergate.gateway.observe.AccessLogProperties;
import io.infergate.gateway.observe.InferenceMeters;
import io.infergate.gateway.observe.InferenceSpanTags;
import io.infergate.routing.actuate.InferenceModelsContributor;
import io.infergate.routing.circuit.EndpointCircuits;
import io.infergate.routing.flowcontrol.FlowController;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.PoolProperties;

/** The OpenAI request path: observation, body parsing, model resolution and fallbacks, routing, retry, errors. */
@Configuration(proxyBeanMethods = false)
public class GatewayConfiguration {

	@Bean
	ServedModels servedModels(EndpointRegistry registry, GatewayProperties properties) {
		return new ServedModels(registry, WebClient.builder(), properties.getServedModelsRefreshInterval());
	}

	/** Checked with the pools before any pool is created: see {@link io.infergate.routing.config.ConfigurationCheck}. */
	@Bean
	ConfiguredModels configuredModels(ModelProperties models, PoolProperties pools) {
		return new ConfiguredModels(models, pools.getPools().keySet());
	}

	@Bean
	InferenceModelsContributor inferenceModelsContributor(ConfiguredModels models) {
		return models::report;
	}

	@Bean
	ModelCatalog modelCatalog(ConfiguredModels models, ServedModels served) {
		return new ModelCatalog(models, served);
	}

	@Bean
	ModelCatalogDashboardSource modelCatalogDashboardSource(ModelCatalog catalog) {
		return new ModelCatalogDashboardSource(catalog);
	}

	@Bean
	ModelsHandler modelsHandler(ModelCatalog catalog, ApiKeys keys) {
		return new ModelsHandler(catalog, keys);
	}

	@Bean
	InferenceMeters inferenceMeters(ObjectProvider<MeterRegistry> registry) {
		return new InferenceMeters(registry.getIfUnique(SimpleMeterRegistry::new));
	}

	@Bean
	ObserveFilter observeFilter(InferenceMeters meters, AccessLogProperties accessLog) {
		return new ObserveFilter(meters, new InferenceSpanTags(), accessLog.isEnabled() ? new AccessLog() : null);
	}

	@Bean
	ReadRequestFilter readRequestFilter(GatewayProperties properties) {
		return new ReadRequestFilter(properties.getMaxBodySize().toBytes());
	}

	@Bean
	ServedByFilter servedByFilter(GatewayProperties properties) {
		return new ServedByFilter(properties.isServedByHeaders());
	}

	@Bean
	ModelFallbackFilter modelFallbackFilter(ModelCatalog catalog) {
		return new ModelFallbackFilter(catalog);
	}

	@Bean
	ResolveModelFilter resolveModelFilter(ModelCatalog catalog, GatewayProperties properties) {
		return new ResolveModelFilter(catalog, properties.getAssumedMaxTokens());
	}

	@Bean
	ForwardedHeadersFilter forwardedHeadersFilter(GatewayProperties properties) {
		return new ForwardedHeadersFilter(properties.getForwardedHeaders());
	}

	/** A post-processor, so created before the beans it wraps and before properties are bound: it binds its own. */
	@Bean
	static InferenceHeadersFilters inferenceHeadersFilters(Environment environment) {
		GatewayProperties properties = Binder.get(environment)
			.bindOrCreate(GatewayProperties.PREFIX, GatewayProperties.class);
		return new InferenceHeadersFilters(properties.getForwardedHeaders());
	}

	@Bean
	PoolTimeoutsCheck poolTimeoutsCheck(PoolProperties pools) {
		return new PoolTimeoutsCheck(pools);
	}

	@Bean
	PoolTimeouts poolTimeouts(PoolProperties pools) {
		return new PoolTimeouts(pools);
	}

	@Bean
	DispatchFilter dispatchFilter(PoolTimeouts timeouts) {
		return new DispatchFilter(timeouts);
	}

	/** Takes the place of Spring Cloud Gateway's own load-balancer filter, which backs off when one exists. */
	@Bean
	InferenceLoadBalancerClientFilter inferenceLoadBalancerClientFilter(LoadBalancerClientFactory clientFactory,
			GatewayLoadBalancerProperties properties) {
		return new InferenceLoadBalancerClientFilter(clientFactory, properties);
	}

	@Bean
	PoolRouteFilter poolRouteFilter() {
		return new PoolRouteFilter();
	}

	@Bean
	FlowControlFilter flowControlFilter(FlowController controller) {
		return new FlowControlFilter(controller);
	}

	@Bean
	FlowControlDashboardSource flowControlDashboardSource(FlowController controller) {
		return new FlowControlDashboardSource(controller);
	}

	@Bean
	CircuitDashboardSource circuitDashboardSource(EndpointCircuits circuits) {
		return new CircuitDashboardSource(circuits);
	}

	@Bean
	CircuitOutcomeFilter circuitOutcomeFilter(EndpointCircuits circuits) {
		return new CircuitOutcomeFilter(circuits);
	}

	@Bean
	UpstreamRetryFilter upstreamRetryFilter(GatewayProperties properties, PoolTimeouts timeouts) {
		return new UpstreamRetryFilter(properties.getRetries(), timeouts);
	}

	@Bean
	OpenAiErrorWebExceptionHandler openAiErrorWebExceptionHandler(GatewayProperties properties) {
		return new OpenAiErrorWebExceptionHandler(properties.getMaxBodySize().toBytes());
	}
}
