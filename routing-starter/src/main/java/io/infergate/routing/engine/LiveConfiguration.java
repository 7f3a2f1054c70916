package io.infergate.routing.engine;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.validation.ValidationBindHandler;
import org.springframework.core.env.Environment;
import org.springframework.validation.beanvalidation.SpringValidatorAdapter;

import io.infergate.routing.auth.ApiKeys;
import io.infergate.routing.auth.AuthProperties;
import io.infergate.routing.auth.LimitsConfigurationCheck;
import io.infergate.routing.limits.LimitType;
import io.infergate.routing.limits.LimitTypes;
import io.infergate.routing.limits.Limits;
import io.infergate.routing.limits.RateLimitPolicy;
import io.infergate.routing.limits.RateLimitProperties;
import io.infergate.routing.limits.RateLimiter;
import io.infergate.routing.model.ConfiguredModels;
import io.infergate.routing.model.ModelCatalog;
import io.infergate.routing.model.ModelProperties;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.PoolProfilesCheck;
import io.infergate.routing.pool.PoolProperties;
import io.infergate.routing.scheduling.PluginType;
import io.infergate.routing.scheduling.SchedulingPlugin;
import io.infergate.routing.scheduling.config.SchedulingConfigurationException;
import io.infergate.routing.scheduling.config.SchedulingProfiles;
import io.infergate.routing.scheduling.config.SchedulingProperties;

/**
 * The configuration the engine routes with, reloaded from the {@link Environment} while the gateway runs: models and
 * aliases, API keys, tenants and limits, and the scheduling profiles and their plugins.
 * <p>
 * {@link #reload} binds every part again, runs the checks startup runs, and only when there is no problem at all
 * swaps them in together; otherwise nothing changes, and every problem is logged at ERROR and kept in
 * {@link #status()}. A request already resolved keeps its model route, its limits decision and the profile it
 * scheduled with; the next request sees the new configuration.
 * <p>
 * Of the pools, the endpoints of a pool that lists them, its profile and its failure mode reload; adding or removing
 * a pool, discovery, timeouts and the pool's other settings, the limits' store and flow control's settings apply
 * at startup only: a reload that changes them is refused with a problem naming the property, and the running
 * configuration stays.
 */
public final class LiveConfiguration {

	private static final Log logger = LogFactory.getLog(LiveConfiguration.class);

	private final Environment environment;

	private final Parts parts;

	private final Clock clock;

	private final ValidatorFactory validation = Validation.buildDefaultValidatorFactory();

	private Running running;

	private volatile Status status;

	/**
	 * What the engine decides with, which a reload reconfigures in place.
	 *
	 * @param types the scheduling plugin types, to build new profiles
	 * @param plugins plugin beans, given to new profiles as they were at startup
	 * @param limitTypes the application's own limit types
	 */
	public record Parts(ModelCatalog models, ApiKeys keys, RateLimiter limiter, InferenceEngine engine,
			SchedulingProfiles profiles, EndpointRegistry registry, Supplier<List<PluginType<?, ?>>> types,
			Supplier<List<SchedulingPlugin>> plugins, Supplier<List<LimitType>> limitTypes) {
	}

	/**
	 * The configuration's version, for {@code /actuator/inference} and the dashboard.
	 *
	 * @param version 1 at startup, one more for each reload that changed something
	 * @param changedAt when the running version took effect
	 * @param lastReloadAt the latest reload attempt, or null
	 * @param lastReloadOutcome {@code applied}, {@code unchanged} or {@code rejected}, or null
	 * @param problems why the latest reload was rejected; empty otherwise
	 */
	public record Status(long version, Instant changedAt, Instant lastReloadAt, String lastReloadOutcome,
			List<String> problems) {
	}

	/** The bound properties in effect. */
	private record Running(ModelProperties models, AuthProperties auth, RateLimitProperties rateLimits,
			SchedulingProperties scheduling, PoolProperties pools, Object flowControl) {
	}

	public LiveConfiguration(Environment environment, Parts parts, Clock clock) {
		this.environment = environment;
		this.parts = parts;
		this.clock = clock;
		this.running = bindAll(new ArrayList<>());
		this.status = new Status(1, clock.instant(), null, null, List.of());
	}

	public Status status() {
		return status;
	}

	/**
	 * Binds the configuration again from the environment and applies it if it changed and has no problem.
	 *
	 * @param trigger what asked, for the log
	 * @return the status after the attempt
	 */
	public synchronized Status reload(String trigger) {
		Instant now = clock.instant();
		List<String> problems = new ArrayList<>();
		Running fresh = bindAll(problems);
		if (!problems.isEmpty()) {
			return reject(trigger, now, problems);
		}
		if (fresh.equals(running)) {
			status = new Status(status.version(), status.changedAt(), now, "unchanged", List.of());
			logger.info("Configuration reload (" + trigger + "): nothing Infergate routes with changed; version "
					+ status.version() + " stays");
			return status;
		}
		List<String> changedPools = changedPools(running.pools(), fresh.pools(), problems);
		// of the limits' settings only default-limits reloads; the store and its settings stay
		if (!fresh.rateLimits().withDefaultLimits(Limits.NONE)
			.equals(running.rateLimits().withDefaultLimits(Limits.NONE))) {
			problems.add("infergate.rate-limits: the limits' store and its settings apply at startup only; only "
					+ "default-limits reloads");
		}
		if (!fresh.flowControl().equals(running.flowControl())) {
			problems.add("infergate.flow-control: applies at startup only");
		}
		ConfiguredModels models = new ConfiguredModels(fresh.models(), fresh.pools().pools().keySet());
		problems.addAll(models.problems());
		problems.addAll(new LimitsConfigurationCheck(fresh.auth(), fresh.rateLimits(), fresh.models(), fresh.pools())
			.problems());
		LimitTypes limitTypes = LimitTypes.bind(Binder.get(environment), parts.limitTypes().get());
		problems.addAll(limitTypes.problems());
		SchedulingProfiles profiles = null;
		if (!fresh.scheduling().equals(running.scheduling())) {
			try {
				profiles = new SchedulingProfiles(fresh.scheduling(), parts.types().get(), parts.plugins().get());
			}
			catch (SchedulingConfigurationException ex) {
				problems.addAll(ex.problems());
			}
		}
		if (profiles != null || fresh.scheduling().equals(running.scheduling())) {
			problems.addAll(new PoolProfilesCheck(fresh.pools(),
					((profiles != null) ? profiles : parts.profiles()).names()).problems());
		}
		if (!problems.isEmpty()) {
			return reject(trigger, now, problems);
		}
		if (profiles != null) {
			parts.profiles().replaceWith(profiles);
		}
		for (String pool : changedPools) {
			parts.registry().reconfigure(pool, fresh.pools().pools().get(pool));
		}
		parts.models().reconfigure(models);
		parts.keys().reconfigure(fresh.auth());
		RateLimitPolicy policy = EngineAutoConfiguration.policy(fresh.auth(), fresh.rateLimits(), fresh.models(),
				limitTypes);
		parts.limiter().reconfigure(policy);
		parts.engine().limiter(EngineAutoConfiguration.activeLimiter(parts.keys(), parts.limiter()));
		running = fresh;
		status = new Status(status.version() + 1, now, now, "applied", List.of());
		logger.info("Configuration reloaded (" + trigger + "): version " + status.version());
		return status;
	}

	/**
	 * The pools whose reload applies at once (endpoints, profile, failure mode of a pool that lists its endpoints);
	 * a problem for each other change.
	 */
	private static List<String> changedPools(PoolProperties before, PoolProperties after, List<String> problems) {
		List<String> changed = new ArrayList<>();
		if (!before.pools().keySet().equals(after.pools().keySet())) {
			problems.add("infergate.pools: adding or removing a pool applies at startup only (running "
					+ before.pools().keySet() + ", configured " + after.pools().keySet() + "); restart to change them");
			return changed;
		}
		before.pools().forEach((name, running) -> {
			PoolProperties.Pool next = after.pools().get(name);
			if (running.equals(next)) {
				return;
			}
			if (running.reloadable(next)) {
				changed.add(name);
			}
			else {
				problems.add("infergate.pools." + name + ": only a static pool's endpoints, profile and failure-mode "
						+ "reload; the rest applies at startup, restart to change it");
			}
		});
		return changed;
	}

	private Status reject(String trigger, Instant now, List<String> problems) {
		status = new Status(status.version(), status.changedAt(), now, "rejected", List.copyOf(problems));
		logger.error("Configuration reload (" + trigger + ") rejected; version " + status.version()
				+ " keeps running. Problems:\n - " + String.join("\n - ", problems));
		return status;
	}

	private Running bindAll(List<String> problems) {
		Binder binder = Binder.get(environment);
		ValidationBindHandler validated = new ValidationBindHandler(new SpringValidatorAdapter(validation.getValidator()));
		return new Running(bind(binder, ModelProperties.class, validated, problems),
				bind(binder, AuthProperties.class, validated, problems),
				bind(binder, RateLimitProperties.class, validated, problems),
				bind(binder, SchedulingProperties.class, validated, problems),
				bind(binder, PoolProperties.class, validated, problems),
				binder.bind("infergate.flow-control", Bindable.mapOf(String.class, Object.class))
					.map(Object.class::cast)
					.orElse(Map.of()));
	}

	private static <T> T bind(Binder binder, Class<T> type, ValidationBindHandler handler, List<String> problems) {
		String prefix = type.getAnnotation(ConfigurationProperties.class).value();
		try {
			return binder.bindOrCreate(prefix, Bindable.of(type), handler);
		}
		catch (BindException ex) {
			Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
			problems.add(ex.getName() + ": " + cause.getMessage());
			return null;
		}
	}
}
