package io.infergate.routing.engine;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import io.infergate.routing.InferenceRouter;
import io.infergate.routing.actuate.InferenceModelsContributor;
import io.infergate.routing.limits.FailoverRateLimitStore;
import io.infergate.routing.limits.LimitType;
import io.infergate.routing.limits.LimitTypes;
import io.infergate.routing.limits.Limits;
import io.infergate.routing.limits.MemoryRateLimitStore;
import io.infergate.routing.limits.RateLimitPolicy;
import io.infergate.routing.limits.RateLimitProperties;
import io.infergate.routing.limits.RateLimitStore;
import io.infergate.routing.limits.RateLimiter;
import io.infergate.routing.limits.RedisRateLimitStore;
import io.infergate.routing.limits.TenantMeters;
import io.infergate.routing.auth.LimitsConfigurationCheck;
import io.infergate.routing.auth.ApiKeys;
import io.infergate.routing.discovery.PoolEndpointSynchronizer;
import io.infergate.routing.auth.AuthProperties;
import io.infergate.routing.autoconfigure.RoutingAutoConfiguration;
import io.infergate.routing.config.ConfigurationCheck;
import io.infergate.routing.config.InvalidConfigurationException;
import io.infergate.routing.flowcontrol.FlowController;
import io.infergate.routing.model.ConfiguredModels;
import io.infergate.routing.model.ModelCatalog;
import io.infergate.routing.model.ModelProperties;
import io.infergate.routing.model.ServedModelRoutes;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.PoolProperties;
import io.infergate.routing.redis.SharedRedisClient;
import io.infergate.routing.scheduling.PluginType;
import io.infergate.routing.scheduling.SchedulingPlugin;
import io.infergate.routing.scheduling.config.SchedulingProfiles;
import io.infergate.routing.redis.ScriptConnection;
import io.infergate.routing.spend.BudgetAlerts;
import io.infergate.routing.spend.BudgetListener;
import io.infergate.routing.spend.BudgetStore;
import io.infergate.routing.spend.Budgets;
import io.infergate.routing.spend.Costs;
import io.infergate.routing.spend.FailoverBudgetStore;
import io.infergate.routing.spend.MemoryBudgetStore;
import io.infergate.routing.spend.RedisBudgetStore;
import io.infergate.routing.spend.UsageProperties;
import io.infergate.routing.tokenization.HuggingFaceTokenizerType;
import io.infergate.routing.tokenization.TokenizerType;
import io.infergate.routing.tokenization.TokenizerCacheMeters;
import io.infergate.routing.tokenization.Tokenizers;

/**
 * The {@link InferenceEngine} and what it decides with: the configured models, API keys and tenants, and the limits
 * of each (their policy, their store, memory or Redis). Every configuration check passes before any of these is
 * created, and the gateway does not start until then.
 */
@AutoConfiguration(after = RoutingAutoConfiguration.class)
@EnableConfigurationProperties({ ModelProperties.class, AuthProperties.class, RateLimitProperties.class,
		UsageProperties.class })
public class EngineAutoConfiguration {

	private static final Log logger = LogFactory.getLog(EngineAutoConfiguration.class);

	/** Checked with the pools before any pool is created: see {@link ConfigurationCheck}. */
	@Bean
	ConfiguredModels configuredModels(ModelProperties models, PoolProperties pools) {
		return new ConfiguredModels(models, pools.pools().keySet());
	}

	/**
	 * The models' and pools' tokenizers, loaded once; a missing or invalid file stops startup naming its property.
	 */
	@Bean(destroyMethod = "close")
	Tokenizers tokenizers(ModelProperties models, PoolProperties pools, ObjectProvider<TokenizerType> types) {
		return Tokenizers.load(models, pools, types.orderedStream().toList());
	}

	/** The tokenizers' caches, as meters. */
	@Bean
	TokenizerCacheMeters tokenizerCacheMeters(Tokenizers tokenizers) {
		return new TokenizerCacheMeters(tokenizers);
	}

	/** {@code tokenizer.type: huggingface}, the default: a model's {@code tokenizer.json} and chat template. */
	@Bean
	HuggingFaceTokenizerType huggingFaceTokenizerType() {
		return new HuggingFaceTokenizerType();
	}

	@Bean
	InferenceModelsContributor inferenceModelsContributor(ConfiguredModels models) {
		return models::report;
	}

	/** @param served what the pools' endpoints serve; the gateway asks them, the bench knows its own */
	@Bean
	ModelCatalog modelCatalog(ConfiguredModels models, ObjectProvider<ServedModelRoutes> served) {
		return new ModelCatalog(models, served.getIfAvailable(() -> ServedModelRoutes.NONE));
	}

	/** Each request's cost at its model's price; says once at startup which configured models have none. */
	@Bean
	Costs costs(ModelCatalog models, UsageProperties usage) {
		Costs costs = new Costs(models, usage.currency());
		List<String> unpriced = costs.unpriced();
		if (!unpriced.isEmpty()) {
			logger.info("Models without a price (infergate.models.<name>.price) count their tokens and cost 0 "
					+ usage.currency() + ": " + unpriced);
		}
		return costs;
	}

	@Bean
	LimitsConfigurationCheck limitsConfigurationCheck(AuthProperties auth, RateLimitProperties rateLimits,
			ModelProperties models, PoolProperties pools) {
		return new LimitsConfigurationCheck(auth, rateLimits, models, pools);
	}

	/** Created once every configuration check passes, whichever bean asks first. */
	@Bean
	ApiKeys apiKeys(AuthProperties auth, ObjectProvider<ConfigurationCheck> checks) {
		InvalidConfigurationException.throwIfAny(checks.orderedStream().toList());
		if (auth.enabled()) {
			logger.info("API keys are required: " + auth.keys().size() + " keys " + auth.keys().keySet());
		}
		return new ApiKeys(auth);
	}

	/** The application's own limit types ({@link LimitType} beans) and their subjects' limits. */
	@Bean
	LimitTypes limitTypes(Environment environment, ObjectProvider<LimitType> types) {
		return LimitTypes.bind(Binder.get(environment), types.orderedStream().toList());
	}

	/**
	 * The limits of every key, key × model, tenant and model, the default, and the application's own limit types, in
	 * one policy.
	 */
	@Bean
	RateLimitPolicy rateLimitPolicy(AuthProperties auth, RateLimitProperties rateLimits, ModelProperties models,
			LimitTypes types, ObjectProvider<ConfigurationCheck> checks) {
		InvalidConfigurationException.throwIfAny(checks.orderedStream().toList());
		return policy(auth, rateLimits, models, types);
	}

	/** The one policy of every key, key × model, tenant and model limit, the default, and the typed limits. */
	static RateLimitPolicy policy(AuthProperties auth, RateLimitProperties rateLimits, ModelProperties models,
			LimitTypes types) {
		Map<String, RateLimitPolicy.KeyLimits> keys = new LinkedHashMap<>();
		auth.keys().forEach((id, key) -> keys.put(id, new RateLimitPolicy.KeyLimits(
				(key.tenant() != null && !key.tenant().isBlank()) ? key.tenant() : id, key.limits(),
				key.modelLimits())));
		Map<String, Limits> tenants = new LinkedHashMap<>();
		auth.tenants().forEach((name, tenant) -> {
			if (tenant != null && tenant.limits() != null) {
				tenants.put(name, tenant.limits());
			}
		});
		Map<String, Limits> modelLimits = new LinkedHashMap<>();
		models.models().forEach((name, model) -> {
			if (model.limits() != null) {
				modelLimits.put(name, model.limits());
			}
		});
		return new RateLimitPolicy(keys, tenants, modelLimits, rateLimits.defaultLimits(), types.typed());
	}

	@Bean
	TenantMeters tenantMeters(ObjectProvider<MeterRegistry> registry) {
		return new TenantMeters(registry.getIfUnique(SimpleMeterRegistry::new));
	}

	/** The one connection the limits and the budgets run their scripts on, with {@code store: redis}. */
	@Bean(destroyMethod = "close")
	@ConditionalOnProperty(name = "infergate.rate-limits.store", havingValue = "redis")
	ScriptConnection limitsScriptConnection(RateLimitProperties properties, SharedRedisClient sharedRedis) {
		return new ScriptConnection(sharedRedis, properties.redisTimeout());
	}

	@Bean
	RateLimitStore rateLimitStore(RateLimitProperties properties, ObjectProvider<ScriptConnection> connection,
			ObjectProvider<SharedRedisClient> sharedRedis, ObjectProvider<MeterRegistry> registry) {
		MemoryRateLimitStore memory = new MemoryRateLimitStore(properties.parallelRetryAfter());
		if (properties.store() == RateLimitProperties.Store.MEMORY) {
			return memory;
		}
		logger.info("Rate limits and budgets are shared through Redis at " + sharedRedis.getObject().address()
				+ "; on-store-failure: " + properties.onStoreFailure().configName());
		RedisRateLimitStore redis = new RedisRateLimitStore(connection.getObject(), properties.redisKeyPrefix(),
				properties.leaseTimeout(), properties.parallelRetryAfter(), properties.redisAllowance());
		return new FailoverRateLimitStore(redis, memory, properties.onStoreFailure(),
				registry.getIfUnique(SimpleMeterRegistry::new));
	}

	/** Told when a budget is reached: a warning, a metric, the webhook. */
	@Bean
	BudgetListener budgetAlerts(ObjectProvider<MeterRegistry> registry, UsageProperties usage,
			ObjectProvider<Clock> clock) {
		return new BudgetAlerts(registry.getIfUnique(SimpleMeterRegistry::new), usage.currency(),
				usage.budgetWebhook(), clock.getIfAvailable(Clock::systemUTC));
	}

	/** Where budget spend is counted: beside the limits' counters, in memory or Redis. */
	@Bean
	BudgetStore budgetStore(RateLimitProperties properties, UsageProperties usage,
			ObjectProvider<ScriptConnection> connection, ObjectProvider<MeterRegistry> registry,
			BudgetListener listener, ObjectProvider<Clock> clock) {
		MemoryBudgetStore memory = new MemoryBudgetStore(usage.budgetZone(), listener);
		if (properties.store() == RateLimitProperties.Store.MEMORY) {
			return memory;
		}
		RedisBudgetStore redis = new RedisBudgetStore(connection.getObject(), properties.redisKeyPrefix(),
				usage.budgetZone(), properties.leaseTimeout(), listener, clock.getIfAvailable(Clock::systemUTC));
		return new FailoverBudgetStore(redis, memory, properties.onStoreFailure(),
				registry.getIfUnique(SimpleMeterRegistry::new));
	}

	@Bean
	RateLimiter rateLimiter(RateLimitPolicy policy, RateLimitStore store, TenantMeters meters,
			BudgetStore budgetStore, Costs costs, ObjectProvider<Clock> clock) {
		return new RateLimiter(policy, store, meters,
				new Budgets(budgetStore, costs, clock.getIfAvailable(Clock::systemUTC)));
	}

	/**
	 * Limits are checked when keys are required or any limit is configured; otherwise (the default, and demo mode)
	 * every request passes untouched.
	 */
	@Bean
	InferenceEngine inferenceEngine(ModelCatalog models, RateLimiter limiter, ApiKeys keys,
			FlowController flowControl, InferenceRouter router, Tokenizers tokenizers,
			@Value("${infergate.gateway.assumed-max-tokens:" + InferenceEngine.DEFAULT_ASSUMED_MAX_TOKENS
					+ "}") int assumedMaxTokens) {
		return new InferenceEngine(models, activeLimiter(keys, limiter), flowControl, router, assumedMaxTokens,
				tokenizers);
	}

	/** {@code limiter} when keys are required or its policy limits anything, else {@code null}: nothing to check. */
	static RateLimiter activeLimiter(ApiKeys keys, RateLimiter limiter) {
		return (keys.enabled() || limiter.policy().limitsAnything()) ? limiter : null;
	}

	/** Reloads what the engine decides with from the environment, when asked (the gateway asks on a refresh). */
	@Bean
	LiveConfiguration liveConfiguration(Environment environment, ModelCatalog models, ApiKeys keys,
			RateLimiter limiter, InferenceEngine engine, SchedulingProfiles profiles, EndpointRegistry registry,
			ObjectProvider<PluginType<?, ?>> types, ObjectProvider<SchedulingPlugin> plugins,
			ObjectProvider<LimitType> limitTypes, ObjectProvider<Clock> clock, ObjectProvider<PoolEndpointSynchronizer> endpointSources,
			FlowController flowControl) {
		LiveConfiguration.Parts parts = new LiveConfiguration.Parts(models, keys, limiter, engine, profiles, registry,
				() -> types.orderedStream().toList(), () -> plugins.orderedStream().toList(),
				() -> limitTypes.orderedStream().toList(), endpointSources.getIfAvailable(), flowControl);
		return new LiveConfiguration(environment, parts, clock.getIfAvailable(Clock::systemUTC));
	}
}
