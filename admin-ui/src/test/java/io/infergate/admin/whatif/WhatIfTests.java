package io.infergate.admin.whatif;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import io.infergate.admin.whatif.WhatIf.EndpointPicks;
import io.infergate.admin.whatif.WhatIf.WhatIfReport;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.EndpointPicker;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.SchedulingCycle;
import io.infergate.routing.scheduling.SchedulingProfile;
import io.infergate.routing.scheduling.SchedulingProfile.WeightedScorer;
import io.infergate.routing.scheduling.config.SchedulingProfiles;
import io.infergate.routing.scheduling.config.SchedulingProperties;
import io.infergate.routing.scheduling.decision.DecisionOutcome;
import io.infergate.routing.scheduling.decision.DecisionRecord;
import io.infergate.routing.scheduling.decision.DecisionRecord.EndpointScores;
import io.infergate.routing.scheduling.decision.DecisionRecorder;
import io.infergate.routing.scheduling.decision.DecisionRecorderProperties;
import io.infergate.routing.scheduling.load.InFlightLoad;
import io.infergate.routing.scheduling.picker.MaxScorePicker;
import io.infergate.routing.scheduling.picker.RoundRobinPicker;
import io.infergate.routing.scheduling.picker.WeightedRandomPicker;
import io.infergate.routing.scheduling.scorer.MetricScorer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

class WhatIfTests {

	private static final Map<String, Double> RECORDED = weights(2, 2, 3);

	/** A busy endpoint holding the prompt's prefix (a) against two idle ones without it (b, c). */
	private static final List<EndpointScores> PREFIX_ON_BUSY = List.of(candidate("a", 1, 0.9, 1),
			candidate("b", 1, 1, 0), candidate("c", 1, 1, 0));

	@Test
	void withThePrefixWeightAtZeroAPickThatFollowedThePrefixMovesToTheIdleEndpoints() {
		// recorded totals (2·1 + 2·0.9 + 3·1)/7 = 0.971 for a, 4/7 for b and c; without prefix: 0.95, 1, 1
		WhatIfReport report = WhatIf.replay(profile(new MaxScorePicker()), weights(2, 2, 0),
				List.of(picked(1, "a", PREFIX_ON_BUSY)));

		assertThat(report.considered()).isEqualTo(1);
		assertThat(report.changed()).isEqualTo(1);
		assertThat(report.expectedChanged()).isCloseTo(1, within(1e-12));
		assertThat(report.expectedChangedAtRecordedWeights()).isZero();
		assertThat(report.changes()).singleElement().satisfies((change) -> {
			assertThat(change.recorded()).isEqualTo("a");
			assertThat(change.whatIf()).containsExactly("b", "c");
			assertThat(change.chanceOfRecorded()).isZero();
			assertThat(change.chanceOfRecordedAtRecordedWeights()).isEqualTo(1);
		});
		assertThat(report.endpoints()).containsExactly(new EndpointPicks("a", 1, 0), new EndpointPicks("b", 0, 0.5),
				new EndpointPicks("c", 0, 0.5));
	}

	@Test
	void theRecordedWeightsChangeNoPick() {
		WhatIfReport report = WhatIf.replay(profile(new MaxScorePicker()), RECORDED,
				List.of(picked(1, "a", PREFIX_ON_BUSY), picked(2, "a", PREFIX_ON_BUSY)));

		assertThat(report.changed()).isZero();
		assertThat(report.expectedChanged()).isZero();
		assertThat(report.changes()).isEmpty();
	}

	@Test
	void aTieForTheBestIsADrawNotACertainChange() {
		// all weight on the queue: a, b and c tie at 1, so the recorded a stays with chance 1/3
		WhatIfReport report = WhatIf.replay(profile(new MaxScorePicker()), weights(1, 0, 0),
				List.of(picked(1, "a", PREFIX_ON_BUSY)));

		assertThat(report.changed()).isZero();
		assertThat(report.expectedChanged()).isCloseTo(2 / 3.0, within(1e-12));
		assertThat(report.changes()).isEmpty();
	}

	@Test
	void aRandomPickerGivesExpectedValuesBesideItsOwnChance() {
		// weighted-random at the recorded weights: a 0.971/(0.971 + 2·0.571) = 0.4595; without prefix: 0.95/2.95
		WhatIfReport report = WhatIf.replay(profile(new WeightedRandomPicker()), weights(2, 2, 0),
				List.of(picked(1, "a", PREFIX_ON_BUSY)));

		assertThat(report.changed()).isZero();
		assertThat(report.expectedChanged()).isCloseTo(1 - 0.95 / 2.95, within(1e-9));
		assertThat(report.expectedChangedAtRecordedWeights()).isCloseTo(1 - (6.8 / 7) / (6.8 / 7 + 8 / 7.0),
				within(1e-9));
		assertThat(report.changes()).singleElement()
			.satisfies((change) -> assertThat(change.whatIf()).containsExactly("b", "c"));
	}

	@Test
	void aPickerThatIgnoresTheTotalsKeepsEveryPick() {
		WhatIfReport report = WhatIf.replay(profile(new RoundRobinPicker()), weights(2, 2, 0),
				List.of(picked(1, "a", PREFIX_ON_BUSY)));

		assertThat(report.notReplayable()).contains("round-robin").contains("does not read the weighted totals");
		assertThat(report.changed()).isZero();
		assertThat(report.endpoints()).contains(new EndpointPicks("a", 1, 1));
	}

	@Test
	void onlyPickedDecisionsOfTheProfileWithScoresCount() {
		DecisionRecord otherProfile = new DecisionRecord(2, Instant.EPOCH, "pool", "m", null, "other", "max-score",
				RECORDED, "a", DecisionOutcome.PICKED, 3, 1000, PREFIX_ON_BUSY, List.of());
		DecisionRecord failedOpen = new DecisionRecord(3, Instant.EPOCH, "pool", "m", null, "default", "max-score",
				RECORDED, "a", DecisionOutcome.FAILED_OPEN, 0, 1000, List.of(), List.of());

		WhatIfReport report = WhatIf.replay(profile(new MaxScorePicker()), weights(2, 2, 0),
				List.of(picked(1, "a", PREFIX_ON_BUSY), otherProfile, failedOpen));

		assertThat(report.considered()).isEqualTo(1);
	}

	@Test
	void totalsAreRecomputedAsTheSchedulerComputesThem() {
		double[] totals = WhatIf.totals(PREFIX_ON_BUSY, RECORDED);

		assertThat(totals).containsExactly(new double[] { (2 * 1 + 2 * 0.9 + 3 * 1) / 7.0, 4 / 7.0, 4 / 7.0 },
				within(1e-15));
		assertThat(WhatIf.totals(PREFIX_ON_BUSY, weights(0, 0, 0))).containsExactly(0, 0, 0);
	}

	@Test
	void refusesAnUnknownProfileAScorerItLacksOrABadWeight() {
		SchedulingProperties properties = new SchedulingProperties("default",
				Map.of("default", new SchedulingProperties.Profile(List.of(), Map.of("queue", 1.0), "max-score", null)),
				Map.of());
		WhatIf whatIf = new WhatIf(new SchedulingProfiles(properties, List.of(),
				List.of(MetricScorer.predefined(MetricScorer.QUEUE), new MaxScorePicker(), new InFlightLoad())),
				new DecisionRecorder(new DecisionRecorderProperties(10, 10),
						Clock.systemUTC(), new SimpleMeterRegistry()));

		assertThatIllegalArgumentException().isThrownBy(() -> whatIf.replay("nope", Map.of()))
			.withMessageContaining("unknown profile 'nope'; defined profiles: [default]");
		assertThatIllegalArgumentException().isThrownBy(() -> whatIf.replay("default", Map.of("kv-cache", 1.0)))
			.withMessageContaining("has no scorer 'kv-cache'; its scorers: [queue]");
		assertThatIllegalArgumentException().isThrownBy(() -> whatIf.replay("default", Map.of("queue", -1.0)))
			.withMessageContaining("must be a finite number >= 0");
		assertThat(whatIf.replay("default", Map.of("queue", 0.0)).considered()).isZero();
	}

	private static SchedulingProfile profile(EndpointPicker picker) {
		return new SchedulingProfile("default", List.of(),
				List.of(new WeightedScorer(MetricScorer.predefined(MetricScorer.QUEUE), 2),
						new WeightedScorer(MetricScorer.predefined(MetricScorer.KV_CACHE), 2),
						new WeightedScorer(scorer("prefix-cache"), 3)),
				picker);
	}

	private static EndpointScorer scorer(String name) {
		return new EndpointScorer() {
			@Override
			public String name() {
				return name;
			}

			@Override
			public void score(SchedulingCycle cycle, List<Endpoint> candidates, double[] scores) {
			}
		};
	}

	private static DecisionRecord picked(long sequence, String chosen, List<EndpointScores> scores) {
		return new DecisionRecord(sequence, Instant.ofEpochSecond(sequence), "pool", "m", null, "default",
				"max-score", RECORDED, chosen, DecisionOutcome.PICKED, scores.size(), 1000, scores, List.of());
	}

	private static EndpointScores candidate(String endpoint, double queue, double kv, double prefix) {
		Map<String, Double> scores = new LinkedHashMap<>();
		scores.put("queue", queue);
		scores.put("kv-cache", kv);
		scores.put("prefix-cache", prefix);
		return new EndpointScores(endpoint, scores, WhatIf.totals(List.of(new EndpointScores(endpoint, scores, 0)),
				RECORDED)[0]);
	}

	private static Map<String, Double> weights(double queue, double kv, double prefix) {
		Map<String, Double> weights = new LinkedHashMap<>();
		weights.put("queue", queue);
		weights.put("kv-cache", kv);
		weights.put("prefix-cache", prefix);
		return weights;
	}
}
