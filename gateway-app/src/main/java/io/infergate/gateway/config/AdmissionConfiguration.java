package io.infergate.gateway.config;

import java.util.LinkedHashMap;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.netty.NettyPipeline;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.unit.DataSize;

import io.infergate.gateway.auth.AdmissionConfigurationCheck;
import io.infergate.gateway.auth.ApiKeys;
import io.infergate.gateway.auth.TenantUsageDashboardSource;
import io.infergate.gateway.auth.AuthProperties;
import io.infergate.gateway.error.RefusedRequestHeadHandler;
import io.infergate.gateway.filter.AdmitFilter;
import io.infergate.gateway.filter.AuthenticateFilter;
import io.infergate.gateway.filter.AuthorizeModelFilter;
import io.infergate.gateway.filter.UpstreamCredentialHeadersFilter;
import io.infergate.gateway.filter.UsageAccountingFilter;
import io.infergate.gateway.model.ModelProperties;
import io.infergate.routing.admission.FailoverRateLimitStore;
import io.infergate.routing.admission.MemoryRateLimitStore;
import io.infergate.routing.admission.RateLimitPolicy;
import io.infergate.routing.admission.RateLimitProperties;
import io.infergate.routing.admission.RateLimitStore;
import io.infergate.routing.admission.RateLimiter;
import io.infergate.routing.admission.RedisRateLimitStore;
import io.infergate.routing.admission.TenantMeters;
import io.infergate.routing.config.ConfigurationCheck;
import io.infergate.routing.config.InvalidConfigurationException;
import io.infergate.routing.pool.PoolProperties;
import io.infergate.routing.redis.SharedRedisClient;

/**
 * API keys, tenants and rate limits on the request path, and what keeps credentials and oversized heads in their
 * place. With authentication off and no limit configured (the default, and demo mode) the admission and
 * accounting steps pass every request through untouched.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RateLimitProperties.class)
public class AdmissionConfiguration {

	private static final Log logger = LogFactory.getLog(AdmissionConfiguration.class);

	@Bean
	AdmissionConfigurationCheck admissionConfigurationCheck(AuthProperties auth, RateLimitProperties rateLimits,
			ModelProperties models, PoolProperties pools) {
		return new AdmissionConfigurationCheck(auth, rateLimits, models, pools);
	}

	/** Created once every configuration check passes, whichever bean asks first. */
	@Bean
	ApiKeys apiKeys(AuthProperties auth, ObjectProvider<ConfigurationCheck> checks) {
		InvalidConfigurationException.throwIfAny(checks.orderedStream().toList());
		if (auth.isEnabled()) {
			logger.info("API keys are required: " + auth.getKeys().size() + " keys " + auth.getKeys().keySet());
		}
		return new ApiKeys(auth);
	}

	@Bean
	RateLimitPolicy rateLimitPolicy(AuthProperties auth, RateLimitProperties rateLimits, ModelProperties models,
			ObjectProvider<ConfigurationCheck> checks) {
		InvalidConfigurationException.throwIfAny(checks.orderedStream().toList());
		Map<String, RateLimitPolicy.KeyLimits> keys = new LinkedHashMap<>();
		auth.getKeys().forEach((id, key) -> keys.put(id, new RateLimitPolicy.KeyLimits(
				(key.getTenant() != null && !key.getTenant().isBlank()) ? key.getTenant() : id, key.getLimits(),
				key.getModelLimits())));
		Map<String, io.infergate.routing.admission.Limits> tenants = new LinkedHashMap<>();
		auth.getTenants().forEach((name, tenant) -> {
			if (tenant != null && tenant.getLimits() != null) {
				tenants.put(name, tenant.getLimits());
			}
		});
		Map<String, io.infergate.routing.admission.Limits> modelLimits = new LinkedHashMap<>();
		models.getModels().forEach((name, model) -> {
			if (model.getLimits() != null) {
				modelLimits.put(name, model.getLimits());
			}
		});
		return new RateLimitPolicy(keys, tenants, modelLimits, rateLimits.getDefaultLimits());
	}

	@Bean
	TenantMeters tenantMeters(ObjectProvider<MeterRegistry> registry) {
		return new TenantMeters(registry.getIfUnique(SimpleMeterRegistry::new));
	}

	@Bean
	RateLimitStore rateLimitStore(RateLimitProperties properties, ObjectProvider<SharedRedisClient> sharedRedis,
			ObjectProvider<MeterRegistry> registry) {
		MemoryRateLimitStore memory = new MemoryRateLimitStore(properties.getParallelRetryAfter());
		if (properties.getStore() == RateLimitProperties.Store.MEMORY) {
			return memory;
		}
		SharedRedisClient client = sharedRedis.getObject();
		logger.info("Rate limits are shared through Redis at " + client.address() + "; on-store-failure: "
				+ properties.getOnStoreFailure().configName());
		RedisRateLimitStore redis = new RedisRateLimitStore(client, properties.getRedisTimeout(),
				properties.getRedisKeyPrefix(), properties.getLeaseTimeout(), properties.getParallelRetryAfter(),
				properties.getRedisAllowance());
		return new FailoverRateLimitStore(redis, memory, properties.getOnStoreFailure(),
				registry.getIfUnique(SimpleMeterRegistry::new));
	}

	@Bean
	RateLimiter rateLimiter(RateLimitPolicy policy, RateLimitStore store, TenantMeters meters) {
		return new RateLimiter(policy, store, meters);
	}

	@Bean
	TenantUsageDashboardSource tenantUsageDashboardSource(RateLimiter rateLimiter) {
		return new TenantUsageDashboardSource(rateLimiter);
	}

	@Bean
	AuthenticateFilter authenticateFilter(ApiKeys keys) {
		return new AuthenticateFilter(keys);
	}

	@Bean
	AuthorizeModelFilter authorizeModelFilter(ApiKeys keys) {
		return new AuthorizeModelFilter(keys);
	}

	@Bean
	AdmitFilter admitFilter(RateLimiter limiter, ApiKeys keys) {
		return new AdmitFilter(limiter, admissionActive(keys, limiter.policy()));
	}

	@Bean
	UsageAccountingFilter usageAccountingFilter() {
		return new UsageAccountingFilter();
	}

	@Bean
	UpstreamCredentialHeadersFilter upstreamCredentialHeadersFilter(PoolProperties pools) {
		Map<String, String> credentials = new LinkedHashMap<>();
		pools.getPools().forEach((name, pool) -> {
			if (pool.getUpstreamApiKey() != null) {
				credentials.put(name, pool.getUpstreamApiKey());
			}
		});
		return new UpstreamCredentialHeadersFilter(credentials);
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
									gateway.getMaxRequestHeaders()));
			}
		});
	}

	/** Admission runs when keys are required or any limit is configured. */
	private static boolean admissionActive(ApiKeys keys, RateLimitPolicy policy) {
		return keys.enabled() || policy.limitsAnything();
	}
}
