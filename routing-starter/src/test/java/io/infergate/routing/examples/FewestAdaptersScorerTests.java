package io.infergate.routing.examples;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.Scheduler;
import io.infergate.routing.scheduling.SchedulingResult;
import io.infergate.routing.scheduling.autoconfigure.SchedulingAutoConfiguration;
import io.infergate.routing.scheduling.config.SchedulingConfigurationException;
import io.infergate.routing.scheduling.config.SchedulingProfiles;

import static io.infergate.routing.scheduling.Fixtures.cycle;
import static io.infergate.routing.scheduling.Fixtures.endpoint;
import static io.infergate.routing.scheduling.Fixtures.loraMetrics;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A new scorer is its class, this test and one line of configuration: the line that gives it a weight in a
 * scheduling profile. The scorer's type is a bean, found here as an application's component scan finds it.
 */
class FewestAdaptersScorerTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SchedulingAutoConfiguration.class))
		.withUserConfiguration(FewestAdaptersScorer.Type.class)
		.withPropertyValues("infergate.scheduling.default-profile=spread-adapters",
				"infergate.scheduling.profiles.spread-adapters.picker=max-score",
				// the one line
				"infergate.scheduling.profiles.spread-adapters.scorers.fewest-adapters=1");

	@Test
	void aProfileThatWeighsItPicksTheEndpointRunningTheFewestAdapters() {
		runner.run((context) -> {
			Endpoint busy = endpoint(1, loraMetrics(4, Set.of("a", "b", "c"), Set.of()), 0);
			Endpoint quiet = endpoint(2, loraMetrics(4, Set.of("a"), Set.of()), 0);

			SchedulingResult result = new Scheduler().schedule(
					context.getBean(SchedulingProfiles.class).get("spread-adapters"), cycle(), List.of(busy, quiet));

			assertThat(result.chosen()).isSameAs(quiet);
			assertThat(result.totals()).containsExactly(0.25, 0.75);
		});
	}

	@Test
	void aSecondInstanceTakesItsOwnParameters() {
		runner.withPropertyValues("infergate.scheduling.plugins.fewest-of-eight.type=fewest-adapters",
				"infergate.scheduling.plugins.fewest-of-eight.crowded=8",
				"infergate.scheduling.profiles.spread-adapters.scorers.fewest-of-eight=1")
			.run((context) -> {
				Endpoint busy = endpoint(1, loraMetrics(8, Set.of("a", "b", "c", "d"), Set.of()), 0);

				SchedulingResult result = new Scheduler().schedule(
						context.getBean(SchedulingProfiles.class).get("spread-adapters"), cycle(), List.of(busy));

				// (0 from fewest-adapters, where 4 running is crowded, + 0.5 from fewest-of-eight) / 2
				assertThat(result.totals()).containsExactly(0.25);
			});
	}

	@Test
	void aParameterThatCannotWorkStopsStartupAtItsPropertyPath() {
		runner.withPropertyValues("infergate.scheduling.plugins.fewest-adapters.crowded=0").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(SchedulingConfigurationException.class)
				.hasMessageContaining("infergate.scheduling.plugins.fewest-adapters.crowded: must be at least 1, got 0");
		});
	}
}
