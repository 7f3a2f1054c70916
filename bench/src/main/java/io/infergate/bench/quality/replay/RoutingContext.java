package io.infergate.bench.quality.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.ArrayList;
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
import io.infergate.routing.scheduling.scorer.PrecisePrefixScorer;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;

/**
 * A Spring context holding the gateway's {@link InferenceEngine} for one replay, built as a
 * {@code SpringApplication} so that the shipped profiles and the engine's auto-configuration load exactly as in the
 * gateway. Every replay gets a fresh
 * context, so plugins with memory (prefix index, sessions, round-robin turns) start empty, and each gateway replica of
 * a replay has its own.
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
	 */
	static RoutingContext start(VirtualClock clock, EndpointRegistry registry, PrefixCacheOracle oracle,
			RandomGenerator random, Boolean flowControl) {
		List<PropertySource<?>> benchProfiles = benchProfiles();
		List<String> properties = new ArrayList<>(List.of("logging.level.root=warn", "spring.jmx.enabled=false"));
		if (flowControl != null) {
			properties.add("infergate.flow-control.enabled=" + flowControl);
		}
		ConfigurableApplicationContext context = new SpringApplicationBuilder(BenchRoutingConfiguration.class)
			.web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.registerShutdownHook(false)
			.properties(properties.toArray(String[]::new))
			.initializers((applicationContext) -> {
				GenericApplicationContext generic = (GenericApplicationContext) applicationContext;
				generic.registerBean(Clock.class, () -> clock);
				generic.registerBean(EndpointRegistry.class, () -> registry);
				generic.registerBean(PrefixCacheOracle.class, () -> oracle);
				generic.registerBean(RandomGenerator.class, () -> random);
				benchProfiles.forEach(applicationContext.getEnvironment().getPropertySources()::addLast);
			})
			.run();
		return new RoutingContext(context, context.getBean(InferenceEngine.class));
	}

	/** The names of every profile a replay can run: the shipped ones and the bench's own. */
	static Set<String> profileNames() {
		try (RoutingContext probe = start(new VirtualClock(), new EndpointRegistry(Map.of()),
				new NoOracle(), RandomGenerator.of("L64X128MixRandom"), null)) {
			return Set.copyOf(probe.context.getBean(SchedulingProfiles.class).names());
		}
	}

	/** Whether the profile named {@code profile} reads the engines' KV-cache events. */
	static boolean readsEngineBlocks(String profile) {
		try (RoutingContext probe = start(new VirtualClock(), new EndpointRegistry(Map.of()),
				new NoOracle(), RandomGenerator.of("L64X128MixRandom"), null)) {
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
