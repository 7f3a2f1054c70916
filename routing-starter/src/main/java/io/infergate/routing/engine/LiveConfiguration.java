package io.infergate.routing.engine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;

import reactor.core.Disposable;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

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
import io.infergate.routing.discovery.PoolEndpointSynchronizer;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.flowcontrol.FlowController;
import io.infergate.routing.flowcontrol.PoolFlowReport;
import io.infergate.routing.kvevents.KvEventSubscriptions;
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
import io.infergate.routing.metrics.EndpointScraping;
import io.infergate.routing.model.ModelProperties;
import io.infergate.routing.pool.EndpointPool;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.PoolProfilesCheck;
import io.infergate.routing.pool.PoolProperties;
import io.infergate.routing.pool.PoolTimeoutsCheck;
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
 * Pools are added and removed. A pool added is put through the checks startup runs, starts being discovered and
 * scraped before any model routes to it, and the reload waits (up to {@link #NEW_POOL_WAIT}) for one of its
 * endpoints to be ready. A pool removed stops being named by any model at once and then retires: requests already
 * on their way to it are served, and it leaves once nothing is in flight or waiting for it (checked every second,
 * from {@link #DRAIN_AT_LEAST} after the reload). Of a pool that stays, its profile, failure mode, timeouts and
 * upstream key reload, and so do its endpoints when it lists them; its engine, discovery, scrape, KV-event and
 * engine-priority settings, the limits' store and flow control's settings apply at startup only: a reload that
 * changes them is refused with a problem naming the property, and the running configuration stays.
 */
public final class LiveConfiguration implements AutoCloseable {

	/** The longest a reload waits for a pool it adds to have a ready endpoint before models route to it. */
	public static final Duration NEW_POOL_WAIT = Duration.ofSeconds(10);

	/** The least time a removed pool drains, for requests between choosing its model and entering its queue. */
	public static final Duration DRAIN_AT_LEAST = Duration.ofSeconds(2);

	private static final Log logger = LogFactory.getLog(LiveConfiguration.class);

	private final Environment environment;

	private final Parts parts;

	private final Clock clock;

	private final ValidatorFactory validation = Validation.buildDefaultValidatorFactory();

	private Running running;

	private volatile Status status;

	/** Pools removed from the configuration and still draining, by name: when each was retired. */
	private final Map<String, Instant> retiring = new ConcurrentHashMap<>();

	private final Scheduler drains = Schedulers.newSingle("infergate-pool-drain", true);

	private Disposable drainCheck;

	/**
	 * What the engine decides with, which a reload reconfigures in place.
	 *
	 * @param types the scheduling plugin types, to build new profiles
	 * @param plugins plugin beans, given to new profiles as they were at startup
	 * @param limitTypes the application's own limit types
	 * @param endpointSources where a pool's endpoints come from, to check a pool a reload adds; null where nothing
	 * discovers endpoints (an engine run in-process, without the gateway), so a reload cannot add a pool
	 * @param flowControl what is in flight and waiting per pool, to know when a removed pool has drained
	 */
	public record Parts(ModelCatalog models, ApiKeys keys, RateLimiter limiter, InferenceEngine engine,
			SchedulingProfiles profiles, EndpointRegistry registry, Supplier<List<PluginType<?, ?>>> types,
			Supplier<List<SchedulingPlugin>> plugins, Supplier<List<LimitType>> limitTypes,
			PoolEndpointSynchronizer endpointSources, FlowController flowControl) {
	}

	/**
	 * The configuration's version, for {@code /actuator/inference} and the dashboard.
	 *
	 * @param version 1 at startup, one more for each reload that changed something
	 * @param changedAt when the running version took effect
	 * @param lastReloadAt the latest reload attempt, or null
	 * @param lastReloadOutcome {@code applied}, {@code unchanged} or {@code rejected}, or null
	 * @param problems why the latest reload was rejected; empty otherwise
	 * @param retiringPools the pools a reload removed that still drain
	 */
	public record Status(long version, Instant changedAt, Instant lastReloadAt, String lastReloadOutcome,
			List<String> problems, List<String> retiringPools) {

		Status withRetiringPools(List<String> pools) {
			return new Status(version, changedAt, lastReloadAt, lastReloadOutcome, problems, pools);
		}
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
		this.status = new Status(1, clock.instant(), null, null, List.of(), List.of());
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
			status = new Status(status.version(), status.changedAt(), now, "unchanged", List.of(),
					status.retiringPools());
			logger.info("Configuration reload (" + trigger + "): nothing Infergate routes with changed; version "
					+ status.version() + " stays");
			return status;
		}
		PoolChanges pools = poolChanges(running.pools(), fresh.pools(), problems);
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
		pools.changed().forEach((name, settings) -> {
			parts.registry().reconfigure(name, settings);
			retiring.remove(name);
		});
		pools.added().forEach(parts.registry()::addPool);
		awaitReady(pools.added().keySet());
		parts.models().reconfigure(models);
		parts.keys().reconfigure(fresh.auth());
		RateLimitPolicy policy = EngineAutoConfiguration.policy(fresh.auth(), fresh.rateLimits(), fresh.models(),
				limitTypes);
		parts.limiter().reconfigure(policy);
		parts.engine().limiter(EngineAutoConfiguration.activeLimiter(parts.keys(), parts.limiter()));
		for (String name : pools.removed()) {
			parts.registry().retire(name);
			retiring.put(name, now);
		}
		running = fresh;
		status = new Status(status.version() + 1, now, now, "applied", List.of(), List.copyOf(retiring.keySet()));
		logger.info("Configuration reloaded (" + trigger + "): version " + status.version()
				+ (pools.added().isEmpty() ? "" : "; pools added: " + pools.added().keySet())
				+ (pools.removed().isEmpty() ? "" : "; pools retiring: " + pools.removed()));
		if (!retiring.isEmpty() && drainCheck == null) {
			drainCheck = drains.schedulePeriodically(this::removeDrainedPools, 1, 1, TimeUnit.SECONDS);
		}
		return status;
	}

	/** Waits until each pool has a ready endpoint, or {@link #NEW_POOL_WAIT} has passed, and says which has none. */
	private void awaitReady(Collection<String> added) {
		if (added.isEmpty()) {
			return;
		}
		long deadline = System.nanoTime() + NEW_POOL_WAIT.toNanos();
		List<String> waiting = new ArrayList<>(added);
		while (true) {
			waiting.removeIf((name) -> !parts.registry().pool(name).readyEndpoints(List.of()).isEmpty());
			if (waiting.isEmpty() || System.nanoTime() >= deadline) {
				break;
			}
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				break;
			}
		}
		if (!waiting.isEmpty()) {
			logger.warn("Pools " + waiting + " have no ready endpoint " + NEW_POOL_WAIT.toSeconds() + " s after being "
					+ "added; their models are routed to them anyway, and answered 503 until one is ready");
		}
	}

	/** Removes each retiring pool that has drained: nothing in flight to its endpoints, nothing waiting for it. */
	private synchronized void removeDrainedPools() {
		Instant now = clock.instant();
		retiring.forEach((name, since) -> {
			EndpointPool pool = parts.registry().pool(name);
			if (pool == null || !pool.isRetiring()) {
				retiring.remove(name);
			}
			else if (!now.isBefore(since.plus(DRAIN_AT_LEAST)) && drained(pool)) {
				parts.registry().removePool(name);
				retiring.remove(name);
			}
		});
		status = status.withRetiringPools(List.copyOf(retiring.keySet()));
		if (retiring.isEmpty() && drainCheck != null) {
			drainCheck.dispose();
			drainCheck = null;
		}
	}

	private boolean drained(EndpointPool pool) {
		for (Endpoint endpoint : pool.endpoints()) {
			if (endpoint.inFlightRequests() > 0) {
				return false;
			}
		}
		PoolFlowReport flow = parts.flowControl().report(pool.name());
		return flow == null || (flow.inFlightRequests() == 0 && flow.queuedRequests() == 0);
	}

	@Override
	public void close() {
		drains.dispose();
	}

	/**
	 * What a reload does to the pools.
	 *
	 * @param added pools new to the gateway
	 * @param changed pools whose settings change where they apply at once, a retiring pool configured again among them
	 * @param removed pools to retire
	 */
	private record PoolChanges(Map<String, PoolProperties.Pool> added, Map<String, PoolProperties.Pool> changed,
			List<String> removed) {
	}

	/** The pools to add, reconfigure and retire; a problem for each change that does not apply while running. */
	private PoolChanges poolChanges(PoolProperties before, PoolProperties after, List<String> problems) {
		Map<String, PoolProperties.Pool> added = new LinkedHashMap<>();
		Map<String, PoolProperties.Pool> changed = new LinkedHashMap<>();
		after.pools().forEach((name, next) -> {
			PoolProperties.Pool current = before.pools().get(name);
			EndpointPool draining = (current == null) ? parts.registry().pool(name) : null;
			if (current == null && draining == null) {
				List<String> found = new ArrayList<>(EndpointRegistry.problems(name, next));
				if (found.isEmpty()) {
					found.addAll(PoolTimeoutsCheck.problems(name, next));
					found.addAll(EndpointScraping.problems(name, next));
					found.addAll(KvEventSubscriptions.problems(name, next));
					String source = (parts.endpointSources() != null) ? parts.endpointSources().problem(name, next)
							: "infergate.pools." + name + ": pools cannot be added here: nothing discovers endpoints";
					if (source != null) {
						found.add(source);
					}
				}
				problems.addAll(found);
				added.put(name, next);
				return;
			}
			PoolProperties.Pool running = (current != null) ? current : draining.settings();
			if (running.equals(next) && current != null) {
				return;
			}
			if (running.reloadable(next)) {
				problems.addAll(PoolTimeoutsCheck.problems(name, next));
				changed.put(name, next);
			}
			else if (current == null) {
				problems.add("infergate.pools." + name + ": a pool of that name, removed by an earlier reload, is still "
						+ "draining with other settings; add it again once it has left, or under another name");
			}
			else {
				problems.add("infergate.pools." + name + ": of a pool that stays, only its profile, failure-mode, "
						+ "timeouts, upstream-api-key and listed endpoints reload; its engine, discovery, scrape, "
						+ "kv-events and engine-priority apply at startup (remove the pool and add it under another "
						+ "name, or restart)");
			}
		});
		List<String> removed = new ArrayList<>();
		for (String name : before.pools().keySet()) {
			if (!after.pools().containsKey(name)) {
				removed.add(name);
			}
		}
		return new PoolChanges(added, changed, removed);
	}

	private Status reject(String trigger, Instant now, List<String> problems) {
		status = new Status(status.version(), status.changedAt(), now, "rejected", List.copyOf(problems),
				status.retiringPools());
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
