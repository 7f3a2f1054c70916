package io.infergate.routing.scheduling.config;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.SchedulingCycle;
import io.infergate.routing.scheduling.SchedulingProfile;
import io.infergate.routing.scheduling.autoconfigure.SchedulingAutoConfiguration;
import io.infergate.routing.scheduling.filter.ReadyFilter;
import io.infergate.routing.scheduling.filter.SaturationFilter;
import io.infergate.routing.scheduling.load.EngineReportedLoad;
import io.infergate.routing.scheduling.load.InFlightLoad;
import io.infergate.routing.scheduling.picker.MaxScorePicker;
import io.infergate.routing.scheduling.scorer.KvCacheScorer;
import io.infergate.routing.scheduling.scorer.QueueScorer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class SchedulingProfilesTest {

	private static final String VALID_SCORERS = "valid scorers: estimated-ttft, kv-cache, least-outstanding-tokens, "
			+ "least-request, lora-affinity, precise-prefix, prefix-cache, queue, running-requests, session-affinity";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SchedulingAutoConfiguration.class))
		.withPropertyValues("infergate.scheduling.profiles.default.filters=ready,saturation",
				"infergate.scheduling.profiles.default.scorers.queue=2",
				"infergate.scheduling.profiles.default.scorers.kv-cache=2",
				"infergate.scheduling.profiles.default.picker=max-score",
				"infergate.scheduling.profiles.spread.picker=round-robin");

	@Test
	void buildsProfilesFromThePluginBeansByName() {
		runner.run((context) -> {
			SchedulingProfiles profiles = context.getBean(SchedulingProfiles.class);
			SchedulingProfile profile = profiles.get("default");

			assertThat(profiles.names()).containsExactly("default", "spread");
			assertThat(profile.filters()).extracting((filter) -> filter.name())
				.containsExactly(ReadyFilter.NAME, SaturationFilter.NAME);
			assertThat(profile.scorers()).extracting((weighted) -> weighted.scorer().name() + "=" + weighted.weight())
				.containsExactly(QueueScorer.NAME + "=2.0", KvCacheScorer.NAME + "=2.0");
			assertThat(profile.picker().name()).isEqualTo(MaxScorePicker.NAME);
			assertThat(profile.picker()).isSameAs(context.getBean(MaxScorePicker.class));
		});
	}

	@Test
	void resolvesNullToTheDefaultProfile() {
		runner.withPropertyValues("infergate.scheduling.default-profile=spread").run((context) -> {
			SchedulingProfiles profiles = context.getBean(SchedulingProfiles.class);

			assertThat(profiles.defaultProfile().name()).isEqualTo("spread");
			assertThat(profiles.resolve(null)).isSameAs(profiles.defaultProfile());
			assertThat(profiles.resolve("default")).isSameAs(profiles.get("default"));
		});
	}

	@Test
	void unknownProfileNameListsTheDefinedOnes() {
		runner.run((context) -> assertThatIllegalArgumentException()
			.isThrownBy(() -> context.getBean(SchedulingProfiles.class).get("fastest"))
			.withMessage("unknown scheduling profile 'fastest'; defined profiles: default, spread"));
	}

	@Test
	void unknownScorerNameFailsStartupListingTheValidNames() {
		runner.withPropertyValues("infergate.scheduling.profiles.default.scorers.prefix-cash=3")
			.run((context) -> assertThat(failure(context)).contains(
					"infergate.scheduling.profiles.default.scorers.prefix-cash: unknown scorer 'prefix-cash'; "
							+ VALID_SCORERS));
	}

	@Test
	void unknownFilterAndPickerNamesFailStartupListingTheValidNames() {
		runner.withPropertyValues("infergate.scheduling.profiles.default.filters=ready,healthy",
				"infergate.scheduling.profiles.default.picker=best")
			.run((context) -> assertThat(failure(context))
				.contains("infergate.scheduling.profiles.default.filters[1]: unknown filter 'healthy'; "
						+ "valid filters: circuit-breaker, lora-affinity, ready, saturation")
				.contains("infergate.scheduling.profiles.default.picker: unknown picker 'best'; valid pickers: "
						+ "chwbl, max-score, power-of-two, random, round-robin, weighted-random"));
	}

	@Test
	void aProfileCountsLoadInFlightUnlessItNamesAnotherLoad() {
		runner.withPropertyValues("infergate.scheduling.profiles.spread.load=engine-reported").run((context) -> {
			SchedulingProfiles profiles = context.getBean(SchedulingProfiles.class);

			assertThat(profiles.get("default").load().name()).isEqualTo(InFlightLoad.NAME);
			assertThat(profiles.get("spread").load()).isSameAs(context.getBean(EngineReportedLoad.class));
		});
	}

	@Test
	void unknownLoadNameFailsStartupListingTheValidNames() {
		runner.withPropertyValues("infergate.scheduling.profiles.spread.load=queue")
			.run((context) -> assertThat(failure(context))
				.contains("infergate.scheduling.profiles.spread.load: unknown load 'queue'; valid loads: "
						+ "engine-reported, in-flight"));
	}

	@Test
	void missingPickerFailsStartup() {
		runner.withPropertyValues("infergate.scheduling.profiles.nopicker.scorers.queue=1")
			.run((context) -> assertThat(failure(context))
				.contains("infergate.scheduling.profiles.nopicker.picker: missing; a profile needs exactly one "
						+ "picker; valid pickers: chwbl, max-score, power-of-two, random, round-robin, "
						+ "weighted-random"));
	}

	@Test
	void negativeOrNanWeightFailsStartup() {
		runner.withPropertyValues("infergate.scheduling.profiles.default.scorers.queue=-1",
				"infergate.scheduling.profiles.default.scorers.kv-cache=NaN")
			.run((context) -> assertThat(failure(context))
				.contains("infergate.scheduling.profiles.default.scorers.queue: weight must be a finite number >= 0, "
						+ "got -1.0")
				.contains("infergate.scheduling.profiles.default.scorers.kv-cache: weight must be a finite number "
						+ ">= 0, got NaN"));
	}

	@Test
	void undefinedDefaultProfileFailsStartup() {
		runner.withPropertyValues("infergate.scheduling.default-profile=fastest")
			.run((context) -> assertThat(failure(context))
				.contains("infergate.scheduling.default-profile: profile 'fastest' is not defined; "
						+ "defined profiles: default, spread"));
	}

	@Test
	void userDeclaredPluginBeansArePickedUpByName() {
		runner.withUserConfiguration(UserScorerConfiguration.class)
			.withPropertyValues("infergate.scheduling.profiles.default.scorers.constant=1")
			.run((context) -> assertThat(context.getBean(SchedulingProfiles.class).get("default").scorers())
				.extracting((weighted) -> weighted.scorer().name())
				.containsExactly("queue", "kv-cache", "constant"));
	}

	@Test
	void twoPluginsOfOneKindWithTheSameNameFailStartup() {
		runner.withUserConfiguration(DuplicateQueueScorerConfiguration.class)
			.run((context) -> assertThat(failure(context)).contains("two scorers are named 'queue'"));
	}

	@Test
	void invalidPluginParameterFailsStartupNamingTheProperty() {
		runner.withPropertyValues("infergate.scheduling.plugins.least-outstanding-tokens.smoothing-tokens=0")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("infergate.scheduling.plugins.least-outstanding-tokens.smoothing-tokens"));
	}

	@Test
	void invalidSaturationThresholdFailsStartupNamingTheProperty() {
		runner.withPropertyValues("infergate.scheduling.saturation.kv-cache-threshold=1.5")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("infergate.scheduling.saturation.kv-cache-threshold"));
	}

	private static String failure(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		Throwable failure = context.getStartupFailure();
		while (failure != null && !(failure instanceof SchedulingConfigurationException)) {
			failure = failure.getCause();
		}
		assertThat(failure).as("a SchedulingConfigurationException in the cause chain").isNotNull();
		return failure.getMessage();
	}

	@Configuration(proxyBeanMethods = false)
	static class UserScorerConfiguration {

		@Bean
		EndpointScorer constantScorer() {
			return new EndpointScorer() {

				@Override
				public String name() {
					return "constant";
				}

				@Override
				public void score(SchedulingCycle cycle, List<Endpoint> candidates, double[] scores) {
					Arrays.fill(scores, 0, candidates.size(), 0.5);
				}
			};
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class DuplicateQueueScorerConfiguration {

		@Bean
		EndpointScorer anotherQueueScorer() {
			return new EndpointScorer() {

				@Override
				public String name() {
					return QueueScorer.NAME;
				}

				@Override
				public void score(SchedulingCycle cycle, List<Endpoint> candidates, double[] scores) {
				}
			};
		}
	}
}
