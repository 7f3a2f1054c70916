package io.infergate.bench.quality.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.random.RandomGenerator;

import io.infergate.routing.InferenceRouter;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.flowcontrol.FlowController;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.prefix.EngineBlockIndex;
import io.infergate.routing.prefix.PrefixIndex;
import io.infergate.routing.scheduling.Scheduler;
import io.infergate.routing.scheduling.SchedulingProfile;
import io.infergate.routing.scheduling.config.SchedulingProfiles;
import io.infergate.routing.scheduling.decision.DecisionRecorder;
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
 * A Spring context holding the real scheduler for one replay, built as a {@code SpringApplication} so that the
 * shipped profiles load exactly as in the gateway, and the {@link InferenceRouter} over it. Every replay gets a fresh
 * context, so plugins with memory (prefix index, sessions, round-robin turns) start empty, and each gateway replica of
 * a replay has its own.
 */
final class RoutingContext implements AutoCloseable {

	static final String BENCH_PROFILES = "bench-profiles.yml";

	private final ConfigurableApplicationContext context;

	private final InferenceRouter router;

	private RoutingContext(ConfigurableApplicationContext context, InferenceRouter router) {
		this.context = context;
		this.router = router;
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
				benchProfiles.forEach(applicationContext.getEnvironment().getPropertySources()::addLast);
			})
			.run();
		InferenceRouter router = new InferenceRouter(registry, context.getBean(SchedulingProfiles.class),
				context.getBean(Scheduler.class), context.getBean(DecisionRecorder.class), clock, () -> random);
		return new RoutingContext(context, router);
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

	InferenceRouter router() {
		return router;
	}

	/** The gateway's flow control, {@code infergate.flow-control.*}; with it off, every request passes at once. */
	FlowController flowController() {
		return context.getBean(FlowController.class);
	}

	/** The prefix index every prefix-reading plugin of this context shares. */
	PrefixIndex prefixIndex() {
		return context.getBean(PrefixIndex.class);
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
