package io.infergate.routing.scheduling.config;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.EndpointPicker;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.SchedulingCycle;
import io.infergate.routing.scheduling.SchedulingProfile;
import io.infergate.routing.scheduling.autoconfigure.SchedulingAutoConfiguration;
import io.infergate.routing.scheduling.filter.ReadyFilter;
import io.infergate.routing.scheduling.filter.SaturationFilter;
import io.infergate.routing.scheduling.load.EngineReportedLoad;
import io.infergate.routing.scheduling.load.InFlightLoad;
import io.infergate.routing.scheduling.picker.MaxScorePicker;
import io.infergate.routing.scheduling.scorer.MetricScorer;
import io.infergate.routing.scheduling.scorer.PrefixCacheScorer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static io.infergate.routing.scheduling.Fixtures.cycle;
import static io.infergate.routing.scheduling.Fixtures.endpoint;
import static io.infergate.routing.scheduling.Fixtures.score;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class SchedulingProfilesTests {

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
				.containsExactly(MetricScorer.QUEUE + "=2.0", MetricScorer.KV_CACHE + "=2.0");
			assertThat(profile.picker().name()).isEqualTo(MaxScorePicker.NAME);
			assertThat(profile.picker()).isSameAs(profiles.plugins(EndpointPicker.class).get(MaxScorePicker.NAME));
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
	void reweighingReplacesTheGivenWeightsKeepsTheRestAndLeavesTheOldProfileToWhoeverHoldsIt() {
		runner.run((context) -> {
			SchedulingProfiles profiles = context.getBean(SchedulingProfiles.class);
			SchedulingProfile before = profiles.get("default");

			SchedulingProfile after = profiles.reweigh("default", Map.of("kv-cache", 0.5));

			assertThat(after.weights()).containsExactly(Map.entry("queue", 2.0),
					Map.entry("kv-cache", 0.5));
			assertThat(profiles.get("default")).isSameAs(after).isSameAs(profiles.defaultProfile());
			assertThat(after.filters()).isEqualTo(before.filters());
			assertThat(after.picker()).isSameAs(before.picker());
			assertThat(before.weights()).containsEntry("kv-cache", 2.0);
			assertThat(profiles.names()).containsExactly("default", "spread");
		});
	}

	@Test
	void reweighingRejectsAnUnknownScorerOrABadWeightAndChangesNothing() {
		runner.run((context) -> {
			SchedulingProfiles profiles = context.getBean(SchedulingProfiles.class);
			SchedulingProfile before = profiles.get("default");

			assertThatIllegalArgumentException()
				.isThrownBy(() -> profiles.reweigh("default", Map.of("prefix-cache", 1.0)))
				.withMessage("profile 'default' has no scorer 'prefix-cache'; its scorers: [queue, kv-cache]");
			assertThatIllegalArgumentException()
				.isThrownBy(() -> profiles.reweigh("default", Map.of("queue", -1.0)))
				.withMessage("weight of scorer 'queue' must be a finite number >= 0, got -1.0");
			assertThatIllegalArgumentException().isThrownBy(() -> profiles.reweigh("fastest", Map.of()));
			assertThat(profiles.get("default")).isSameAs(before);
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

	@Test
	void aDeclaredInstanceRunsATypeWithItsOwnParametersBesideThePredefinedOne() {
		runner.withPropertyValues("infergate.scheduling.plugins.prefix-cache-short.type=prefix-cache",
				"infergate.scheduling.plugins.prefix-cache-short.max-blocks=16",
				"infergate.scheduling.profiles.short.scorers.prefix-cache-short=1",
				"infergate.scheduling.profiles.short.picker=max-score")
			.run((context) -> {
				SchedulingProfiles profiles = context.getBean(SchedulingProfiles.class);
				EndpointScorer shortPrefix = profiles.get("short").scorers().get(0).scorer();

				assertThat(shortPrefix).isInstanceOf(PrefixCacheScorer.class);
				assertThat(shortPrefix.name()).isEqualTo("prefix-cache-short");
				assertThat(profiles.plugins(EndpointScorer.class).get(PrefixCacheScorer.NAME))
					.isInstanceOf(PrefixCacheScorer.class)
					.isNotSameAs(shortPrefix);
			});
	}

	@Test
	void aPredefinedInstanceTakesSingleParametersWithoutNamingItsType() {
		runner.withPropertyValues("infergate.scheduling.plugins.queue.min=0", "infergate.scheduling.plugins.queue.max=10",
				"infergate.scheduling.plugins.busiest.type=metric",
				"infergate.scheduling.plugins.busiest.metric=running-requests",
				"infergate.scheduling.plugins.busiest.direction=maximize",
				"infergate.scheduling.profiles.default.scorers.busiest=1")
			.run((context) -> {
				SchedulingProfile profile = context.getBean(SchedulingProfiles.class).get("default");
				List<Endpoint> endpoints = List.of(endpoint(1, 5, 10, 0), endpoint(2, 20, 30, 0));
				EndpointScorer queue = profile.scorers().get(0).scorer();
				EndpointScorer busiest = profile.scorers().get(2).scorer();

				// (10 - w) / (10 - 0), clamped: the bounds replace min-max over the candidates
				assertThat(score(queue, cycle(), endpoints)).containsExactly(0.5, 0.0);
				assertThat(score(busiest, cycle(), endpoints)).containsExactly(0.0, 1.0);
			});
	}

	@Test
	void everyBadDeclarationIsListedWithItsPropertyPath() {
		runner.withPropertyValues("infergate.scheduling.plugins.fast.type=fastest",
				"infergate.scheduling.plugins.mystery.weight=3",
				"infergate.scheduling.plugins.chwbl.replicas=64",
				"infergate.scheduling.plugins.kv-cache.direction=sideways",
				"infergate.scheduling.plugins.queue-ish.type=metric",
				"infergate.scheduling.plugins.prefix-cache-long.type=prefix-cache",
				"infergate.scheduling.plugins.prefix-cache-long.max-blocks=1024",
				"infergate.scheduling.profiles.default.scorers.queue-ish=1",
				"infergate.scheduling.profiles.default.scorers.prefix-cache-long=1")
			.run((context) -> assertThat(failure(context))
				.contains("infergate.scheduling.plugins.fast.type: unknown type 'fast" + "est'; valid types: "
						+ "chwbl, circuit-breaker, estimated-ttft, least-outstanding-tokens, lora-affinity, "
						+ "max-score, metric, power-of-two, precise-prefix, prefix-cache, random, ready, round-robin, "
						+ "saturation, session-affinity, weighted-random")
				.contains("infergate.scheduling.plugins.mystery.type: missing; 'mystery' is not a predefined plugin")
				.contains("infergate.scheduling.plugins.chwbl.replicas: unknown parameter of picker 'chwbl'; "
						+ "valid parameters: mean-load-factor, prefix-char-length, replication")
				.contains("infergate.scheduling.plugins.kv-cache.direction: cannot read 'sideways' as one of "
						+ "minimize, maximize (scorer 'kv-cache' of type metric)")
				.contains("infergate.scheduling.plugins.queue-ish.metric: must not be null, got null "
						+ "(scorer 'queue-ish' of type metric)")
				.contains("infergate.scheduling.plugins.prefix-cache-long.max-blocks: must be at most the index's "
						+ "infergate.scheduling.prefix.max-blocks (256), got 1024")
				.contains("infergate.scheduling.profiles.default.scorers.queue-ish: scorer 'queue-ish' cannot be built"));
	}

	@Test
	void aPluginBeanTakesNoDeclaredParameters() {
		runner.withUserConfiguration(UserScorerConfiguration.class)
			.withPropertyValues("infergate.scheduling.plugins.constant.value=0.9")
			.run((context) -> assertThat(failure(context)).contains("infergate.scheduling.plugins.constant.type: "
					+ "missing; 'constant' is not a predefined plugin, so its type must be given"));
	}

	@Test
	void aParameterOfATypeWithoutParametersIsUnknown() {
		runner.withPropertyValues("infergate.scheduling.plugins.max-score.ties=first")
			.run((context) -> assertThat(failure(context)).contains(
					"infergate.scheduling.plugins.max-score.ties: unknown parameter of picker 'max-score'; "
							+ "valid parameters: (none)"));
	}

	@Test
	void aTypeOfTwoKindsDeclaresAnInstanceOfEach() {
		runner.withPropertyValues("infergate.scheduling.plugins.adapters.type=lora-affinity",
				"infergate.scheduling.profiles.default.filters=adapters",
				"infergate.scheduling.profiles.default.scorers.adapters=1")
			.run((context) -> {
				SchedulingProfile profile = context.getBean(SchedulingProfiles.class).get("default");

				assertThat(profile.filters()).extracting((filter) -> filter.name()).containsExactly("adapters");
				assertThat(profile.scorers()).extracting((weighted) -> weighted.scorer().name()).contains("adapters");
			});
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
					return MetricScorer.QUEUE;
				}

				@Override
				public void score(SchedulingCycle cycle, List<Endpoint> candidates, double[] scores) {
				}
			};
		}
	}
}
