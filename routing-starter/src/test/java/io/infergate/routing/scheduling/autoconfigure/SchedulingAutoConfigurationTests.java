package io.infergate.routing.scheduling.autoconfigure;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import io.infergate.routing.scheduling.EndpointFilter;
import io.infergate.routing.scheduling.EndpointPicker;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.Scheduler;
import io.infergate.routing.scheduling.config.SchedulingProfiles;
import io.infergate.routing.scheduling.decision.DecisionRecorder;
import io.infergate.routing.scheduling.saturation.SaturationDetector;
import io.infergate.routing.scheduling.saturation.StalenessPolicy;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

class SchedulingAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SchedulingAutoConfiguration.class))
		.withPropertyValues("infergate.scheduling.profiles.default.picker=max-score");

	@Test
	void registersTheSchedulerItsCollaboratorsAndEveryPredefinedPlugin() {
		runner.run((context) -> {
			assertThat(context).hasSingleBean(Scheduler.class)
				.hasSingleBean(SchedulingProfiles.class)
				.hasSingleBean(SaturationDetector.class)
				.hasSingleBean(DecisionRecorder.class)
				.hasSingleBean(Clock.class);
			SchedulingProfiles profiles = context.getBean(SchedulingProfiles.class);
			assertThat(profiles.plugins(EndpointFilter.class))
				.containsOnlyKeys("ready", "circuit-breaker", "saturation", "lora-affinity");
			assertThat(profiles.plugins(EndpointScorer.class)).containsOnlyKeys("queue", "running-requests", "kv-cache",
					"lora-affinity", "least-request", "least-outstanding-tokens", "prefix-cache", "precise-prefix",
					"session-affinity", "estimated-ttft");
			assertThat(profiles.plugins(EndpointPicker.class)).containsOnlyKeys("max-score", "weighted-random",
					"power-of-two", "round-robin", "random", "chwbl");
			assertThat(profiles.plugins(EndpointScorer.class))
				.allSatisfy((name, scorer) -> assertThat(scorer.name()).isEqualTo(name));
		});
	}

	@Test
	void bindsSaturationThresholds() {
		runner
			.withPropertyValues("infergate.scheduling.saturation.queue-depth-threshold=8",
					"infergate.scheduling.saturation.kv-cache-threshold=0.9",
					"infergate.scheduling.saturation.staleness-threshold=1s",
					"infergate.scheduling.saturation.staleness-policy=ignore",
					"infergate.scheduling.saturation.headroom=0.25")
			.run((context) -> {
				var properties = context.getBean(SaturationDetector.class).properties();

				assertThat(properties.queueDepthThreshold()).isEqualTo(8);
				assertThat(properties.kvCacheThreshold()).isEqualTo(0.9);
				assertThat(properties.stalenessThreshold()).hasSeconds(1);
				assertThat(properties.stalenessPolicy()).isEqualTo(StalenessPolicy.IGNORE);
				assertThat(properties.headroom()).isEqualTo(0.25);
			});
	}

	@Test
	void backsOffForAUserClockAndUsesTheMeterRegistry() {
		runner.withUserConfiguration(VirtualTimeConfiguration.class).run((context) -> {
			assertThat(context.getBean(Clock.class)).isSameAs(VirtualTimeConfiguration.CLOCK);
			DecisionRecorder recorder = context.getBean(DecisionRecorder.class);
			assertThat(recorder.capacity()).isEqualTo(100);
			assertThat(recorder.shouldRecord()).isTrue();
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class VirtualTimeConfiguration {

		static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

		@Bean
		Clock virtualClock() {
			return CLOCK;
		}

		@Bean
		MeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}
	}
}
