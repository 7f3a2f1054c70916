package io.infergate.gateway.config;


import reactor.netty.NettyPipeline;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.cloud.gateway.config.GatewayLoadBalancerProperties;
import org.springframework.cloud.loadbalancer.support.LoadBalancerClientFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.util.unit.DataSize;
import org.springframework.web.reactive.function.client.WebClient;

import io.infergate.gateway.error.OpenAiErrorWebExceptionHandler;
import io.infergate.gateway.error.RefusedRequestHeadHandler;
import io.infergate.gateway.route.ForwardedHeadersFilter;
import io.infergate.gateway.route.InferenceHeadersFilters;
import io.infergate.gateway.route.PoolTimeouts;
import io.infergate.gateway.route.UpstreamCredentialHeadersFilter;
import io.infergate.gateway.loadbalancer.InferenceLoadBalancerClientFilter;
import io.infergate.gateway.model.ModelsHandler;
import io.infergate.gateway.model.ServedModels;
import io.infergate.routing.auth.ApiKeys;
import io.infergate.routing.model.ModelCatalog;
import io.infergate.routing.pool.EndpointPool;
import io.infergate.routing.pool.EndpointRegistry;

/**
 * What the inference route ({@link io.infergate.gateway.route.InferenceRoute}) relies on around it: the models the
 * pools serve and {@code /v1/models}, the headers forwarded upstream, per-pool timeouts, the load balancer that asks
 * the engine, OpenAI-style errors, and the refusal of oversized request heads.
 */
@Configuration(proxyBeanMethods = false)
public class GatewayConfiguration {

	@Bean
	ServedModels servedModels(EndpointRegistry registry, GatewayProperties properties) {
		return new ServedModels(registry, WebClient.builder(), properties.servedModelsRefreshInterval());
	}

	@Bean
	ModelsHandler modelsHandler(ModelCatalog catalog, ApiKeys keys) {
		return new ModelsHandler(catalog, keys);
	}

	@Bean
	ForwardedHeadersFilter forwardedHeadersFilter(GatewayProperties properties) {
		return new ForwardedHeadersFilter(properties.forwardedHeaders());
	}

	/** A post-processor, so created before the beans it wraps and before properties are bound: it binds its own. */
	@Bean
	static InferenceHeadersFilters inferenceHeadersFilters(Environment environment) {
		GatewayProperties properties = Binder.get(environment)
			.bindOrCreate(GatewayProperties.PREFIX, GatewayProperties.class);
		return new InferenceHeadersFilters(properties.forwardedHeaders());
	}

	@Bean
	UpstreamCredentialHeadersFilter upstreamCredentialHeadersFilter(EndpointRegistry registry) {
		return new UpstreamCredentialHeadersFilter((name) -> {
			EndpointPool pool = registry.pool(name);
			return (pool != null) ? pool.settings().upstreamApiKey() : null;
		});
	}

	@Bean
	PoolTimeouts poolTimeouts(EndpointRegistry registry) {
		return new PoolTimeouts(registry);
	}

	/** Takes the place of Spring Cloud Gateway's own load-balancer filter, which backs off when one exists. */
	@Bean
	InferenceLoadBalancerClientFilter inferenceLoadBalancerClientFilter(LoadBalancerClientFactory clientFactory,
			GatewayLoadBalancerProperties properties) {
		return new InferenceLoadBalancerClientFilter(clientFactory, properties);
	}

	@Bean
	OpenAiErrorWebExceptionHandler openAiErrorWebExceptionHandler(GatewayProperties properties) {
		return new OpenAiErrorWebExceptionHandler(properties.maxBodySize().toBytes());
	}

	@Bean
	NettyServerCustomizer refusedRequestHeadCustomizer(
			@Value("${server.max-http-request-header-size:8KB}") DataSize maxHeaderSize,
			@Value("${server.netty.max-initial-line-length:4KB}") DataSize maxInitialLineLength,
			GatewayProperties gateway) {
		long maxHeaderBytes = maxHeaderSize.toBytes();
		long maxLineBytes = maxInitialLineLength.toBytes();
		return (server) -> server.doOnChannelInit((observer, channel, address) -> {
			if (channel.pipeline().get(NettyPipeline.HttpCodec) != null) {
				channel.pipeline()
					.addAfter(NettyPipeline.HttpCodec, RefusedRequestHeadHandler.NAME,
							new RefusedRequestHeadHandler(maxHeaderBytes, maxLineBytes,
									gateway.maxRequestHeaders()));
			}
		});
	}
}
