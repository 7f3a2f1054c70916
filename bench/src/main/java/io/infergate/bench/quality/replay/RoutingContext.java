package io.infergate.bench.quality.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.random.RandomGenerator;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.engine.InferenceEngine;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.prefix.EngineBlockIndex;
import io.infergate.routing.prefix.PrefixIndex;
import io.infergate.routing.scheduling.SchedulingProfile;
import io.infergate.routing.scheduling.config.SchedulingProfiles;
import io.infergate.routing.scheduling.config.ShippedProfiles;
import io.infergate.routing.scheduling.scorer.PrecisePrefixScorer;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.bootstrap.BootstrapRegistry;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.ClassPathResource;

/**
 * A Spring context holding the gateway's {@link InferenceEngine} for one replay, built as a
 * {@code SpringApplication} so that the shipped profiles and the engine's auto-configuration load exactly as in the
 * gateway. Every replay gets a fresh
 * context, so plugins with memory (prefix index, sessions, round-robin turns) start empty, and each gateway replica of
 * a replay has its own.
 * <p>
 * A context hosted in another application's JVM (given its properties) reads nothing but them, the shipped and the
 * bench's profiles: no application files, environment variables or system properties, which are the host's, and no
 * application listener runs, so the host's logging (which Spring Boot's logging listener would set to this context's
 * levels, and reset when the context closes) stays as the host configured it.
 */
final class RoutingContext implements AutoCloseable {

	static final String BENCH_PROFILES = "bench-profiles.yml";

	private final ConfigurableApplicationContext context;

	private final InferenceEngine engine;

	private RoutingContext(ConfigurableApplicationContext context, InferenceEngine engine) {
		this.context = context;
		this.engine = engine;
	}

	/**
	 * @param flowControl {@code infergate.flow-control.enabled} for this context, or null for the gateway's default
	 * @param hostProperties null for a context of the bench's own process; else the context is hosted in another
	 * application's JVM and these are its properties, above the profiles
	 */
	static RoutingContext start(VirtualClock clock, EndpointRegistry registry, PrefixCacheOracle oracle,
			RandomGenerator random, Boolean flowControl, Map<String, String> hostProperties) {
		List<PropertySource<?>> profiles = new ArrayList<>(benchProfiles());
		// the simulated pods tokenize as the simulator does: every profile, precise too, counts their tokens exactly
		List<String> properties = new ArrayList<>(List.of("logging.level.root=warn", "spring.jmx.enabled=false",
				"infergate.pools." + Replay.POOL + ".tokenizer.type=simulator"));
		if (flowControl != null) {
			properties.add("infergate.flow-control.enabled=" + flowControl);
		}
		SpringApplicationBuilder builder = new SpringApplicationBuilder(BenchRoutingConfiguration.class)
			.web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.registerShutdownHook(false)
			.properties(properties.toArray(String[]::new));
		if (hostProperties != null) {
			StandardEnvironment environment = hostedEnvironment(hostProperties);
			builder.environment(environment);
			// what the config files' processor registers, and bootstrap initializers (Spring Cloud's) read
			builder.addBootstrapRegistryInitializer((bootstrap) -> bootstrap.register(Binder.class,
					BootstrapRegistry.InstanceSupplier.from(() -> Binder.get(environment))));
			// no listener: neither the config files nor the environment post-processors nor the logging system
			builder.application().setListeners(List.of());
			// what ShippedProfilesEnvironmentPostProcessor adds to a context with listeners
			profiles.addAll(ShippedProfiles.load((springProfile) -> false));
		}
		ConfigurableApplicationContext context = builder.initializers((applicationContext) -> {
			GenericApplicationContext generic = (GenericApplicationContext) applicationContext;
			generic.registerBean(Clock.class, () -> clock);
			generic.registerBean(EndpointRegistry.class, () -> registry);
			generic.registerBean(PrefixCacheOracle.class, () -> oracle);
			generic.registerBean(RandomGenerator.class, () -> random);
			profiles.forEach(applicationContext.getEnvironment().getPropertySources()::addLast);
		}).run();
		return new RoutingContext(context, context.getBean(InferenceEngine.class));
	}

	/** An environment of {@code properties} alone: without the JVM's system properties and environment variables. */
	private static StandardEnvironment hostedEnvironment(Map<String, String> properties) {
		StandardEnvironment environment = new StandardEnvironment();
		MutablePropertySources sources = environment.getPropertySources();
		sources.remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
		sources.remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
		sources.addFirst(new MapPropertySource("Replay host's properties", new LinkedHashMap<>(properties)));
		return environment;
	}

	/** The names of every profile a replay can run: the shipped ones and the bench's own. */
	static Set<String> profileNames() {
		try (RoutingContext probe = start(new VirtualClock(), new EndpointRegistry(Map.of()),
				new NoOracle(), RandomGenerator.of("L64X128MixRandom"), null, null)) {
			return Set.copyOf(probe.context.getBean(SchedulingProfiles.class).names());
		}
	}

	/** Whether the profile named {@code profile} reads the engines' KV-cache events. */
	static boolean readsEngineBlocks(String profile) {
		try (RoutingContext probe = start(new VirtualClock(), new EndpointRegistry(Map.of()),
				new NoOracle(), RandomGenerator.of("L64X128MixRandom"), null, null)) {
			return probe.engineBlockIndexReadBy(profile) != null;
		}
	}

	/** The gateway's engine: model routing, limits, flow control and scheduling, as the gateway decides. */
	InferenceEngine engine() {
		return engine;
	}

	/** The prefix index every prefix-reading plugin of this context shares. */
	PrefixIndex prefixIndex() {
		return context.getBean(PrefixIndex.class);
	}

	SchedulingProfiles schedulingProfiles() {
		return context.getBean(SchedulingProfiles.class);
	}

	/**
	 * The index of engine-reported blocks that {@code precise-prefix} reads, when {@code policy}'s profile has a scorer
	 * reading it; null otherwise, so other policies pay nothing for events.
	 */
	EngineBlockIndex engineBlockIndexReadBy(String policy) {
		SchedulingProfile profile = context.getBean(SchedulingProfiles.class).get(policy);
		boolean reads = profile.scorers()
			.stream()
			.anyMatch((weighted) -> weighted.scorer() instanceof PrecisePrefixScorer);
		return reads ? context.getBean(EngineBlockIndex.class) : null;
	}

	@Override
	public void close() {
		context.close();
	}

	private static List<PropertySource<?>> benchProfiles() {
		try {
			return new YamlPropertySourceLoader().load("Bench-only profiles (" + BENCH_PROFILES + ")",
					new ClassPathResource(BENCH_PROFILES, RoutingContext.class.getClassLoader()));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot read " + BENCH_PROFILES, ex);
		}
	}

	private static final class NoOracle implements PrefixCacheOracle {

		@Override
		public int promptTokens() {
			return 0;
		}

		@Override
		public int cachedPrefixTokens(Endpoint endpoint) {
			return 0;
		}
	}
}
