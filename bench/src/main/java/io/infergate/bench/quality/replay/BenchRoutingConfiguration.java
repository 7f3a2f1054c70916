package io.infergate.bench.quality.replay;

import java.time.Clock;
import java.util.Set;
import java.util.random.RandomGenerator;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import io.infergate.routing.InferenceRouter;
import io.infergate.routing.engine.EngineAutoConfiguration;
import io.infergate.routing.flowcontrol.FlowControlProperties;
import io.infergate.routing.flowcontrol.FlowController;
import io.infergate.routing.flowcontrol.PoolCapacity;
import io.infergate.routing.model.ModelRoute;
import io.infergate.routing.model.ServedModelRoutes;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.PoolProperties;
import io.infergate.routing.scheduling.Scheduler;
import io.infergate.routing.scheduling.autoconfigure.SchedulingAutoConfiguration;
import io.infergate.routing.scheduling.config.SchedulingProfiles;
import io.infergate.routing.scheduling.decision.DecisionRecorder;
import io.infergate.routing.scheduling.saturation.SaturationDetector;
import io.infergate.routing.tokenization.PromptTextTokenizerType;
import io.infergate.simtokenizer.SimulatorPromptTokenizer;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The deciding side of one replay: the gateway's {@link io.infergate.routing.engine.InferenceEngine} with its own
 * auto-configuration (models, API keys and tenants, limits), the scheduling auto-configuration exactly as the
 * gateway gets it (every built-in plugin, the shipped profiles, validation), flow control as the gateway builds it
 * (the same {@code infergate.flow-control.*} properties and defaults, and the scheduling's
 * {@link SaturationDetector} as its capacity signal), plus the bench-only oracle scorer. The replay registers the
 * virtual {@link Clock}, the {@link EndpointRegistry}, the picker's seeded {@link RandomGenerator} and the
 * {@link PrefixCacheOracle} before the context refreshes.
 */
@Configuration(proxyBeanMethods = false)
@ImportAutoConfiguration({ SchedulingAutoConfiguration.class, EngineAutoConfiguration.class })
@EnableConfigurationProperties({ FlowControlProperties.class, PoolProperties.class })
class BenchRoutingConfiguration {

	/** {@code tokenizer.type: simulator}, which the replay's pool uses, as the gateway application registers it. */
	@Bean
	PromptTextTokenizerType simulatorTokenizerType() {
		return new PromptTextTokenizerType(SimulatorPromptTokenizer.TYPE, SimulatorPromptTokenizer::encode);
	}

	/** The gateway's router over the replay's endpoints, with the replay's seeded randomness. */
	@Bean
	InferenceRouter inferenceRouter(EndpointRegistry registry, SchedulingProfiles profiles, Scheduler scheduler,
			DecisionRecorder decisions, Clock clock, RandomGenerator random) {
		return new InferenceRouter(registry, profiles, scheduler, decisions, clock, () -> random);
	}

	/**
	 * What the simulated pool serves, as its {@code /v1/models} would say: the base model, and any other name as
	 * one of its LoRA adapters.
	 */
	@Bean
	ServedModelRoutes benchServedModels() {
		return new ServedModelRoutes() {

			@Override
			public ModelRoute resolve(String model) {
				return Replay.MODEL.equals(model) ? new ModelRoute(model, Replay.POOL, Replay.MODEL, null)
						: new ModelRoute(model, Replay.POOL, Replay.MODEL, model);
			}

			@Override
			public Set<String> modelIds() {
				return Set.of(Replay.MODEL);
			}
		};
	}

	@Bean
	OraclePrefixCacheScorer oraclePrefixCacheScorer(PrefixCacheOracle oracle) {
		return new OraclePrefixCacheScorer(oracle);
	}

	/** The gateway's flow controller, swept by the replay's event loop instead of a timer thread. */
	@Bean
	FlowController flowController(EndpointRegistry registry, FlowControlProperties properties,
			SaturationDetector saturation, Clock clock) {
		return new FlowController(registry, PoolCapacity.of(properties, saturation), properties, clock,
				new SimpleMeterRegistry());
	}
}
