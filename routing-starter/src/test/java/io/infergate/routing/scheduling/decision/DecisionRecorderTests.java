package io.infergate.routing.scheduling.decision;

import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.EndpointFilter;
import io.infergate.routing.scheduling.Fixtures;
import io.infergate.routing.scheduling.MutableClock;
import io.infergate.routing.scheduling.Scheduler;
import io.infergate.routing.scheduling.SchedulingCycle;
import io.infergate.routing.scheduling.SchedulingProfile;
import io.infergate.routing.scheduling.SchedulingProfile.WeightedScorer;
import io.infergate.routing.scheduling.SchedulingResult;
import io.infergate.routing.scheduling.filter.ReadyFilter;
import io.infergate.routing.scheduling.picker.MaxScorePicker;
import io.infergate.routing.scheduling.saturation.SaturationDetector;
import io.infergate.routing.scheduling.saturation.SaturationProperties;
import io.infergate.routing.scheduling.scorer.MetricScorer;

import static io.infergate.routing.scheduling.Fixtures.NOW_MILLIS;
import static io.infergate.routing.scheduling.Fixtures.POOL;
import static io.infergate.routing.scheduling.Fixtures.endpoint;
import static io.infergate.routing.scheduling.Fixtures.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.within;

class DecisionRecorderTests {

	private final MutableClock clock = new MutableClock(NOW_MILLIS);

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final SchedulingProfile profile = new SchedulingProfile("default",
			List.of(new ReadyFilter(new SaturationDetector(SaturationProperties.defaults()))),
			List.of(new WeightedScorer(MetricScorer.predefined(MetricScorer.QUEUE), 2),
						new WeightedScorer(MetricScorer.predefined(MetricScorer.KV_CACHE), 2)),
			new MaxScorePicker());

	private final Endpoint idle = endpoint(1, 0, 0, 0.5);

	private final Endpoint busy = endpoint(2, 4, 0, 0.0);

	private final Scheduler scheduler = new Scheduler();

	@Test
	void samplesAtMostMaxPerSecond() {
		DecisionRecorder recorder = recorder(3, 2);

		assertThat(recorder.shouldRecord()).isTrue();
		assertThat(recorder.shouldRecord()).isTrue();
		assertThat(recorder.shouldRecord()).isFalse();
		clock.advanceMillis(999 - NOW_MILLIS % 1000);
		assertThat(recorder.shouldRecord()).isFalse();
		clock.advanceMillis(1);
		assertThat(recorder.shouldRecord()).isTrue();
	}

	@Test
	void keepsTheMostRecentCapacityNewestFirst() {
		DecisionRecorder recorder = recorder(3, 100);
		for (int i = 0; i < 5; i++) {
			clock.advanceMillis(1);
			decide(recorder);
		}

		assertThat(recorder.recent()).extracting(DecisionRecord::time)
			.containsExactly(Instant.ofEpochMilli(NOW_MILLIS + 5), Instant.ofEpochMilli(NOW_MILLIS + 4),
					Instant.ofEpochMilli(NOW_MILLIS + 3));
	}

	@Test
	void keepsRawScoresAndTotalsOfEveryCandidateWhenRecorded() {
		DecisionRecorder recorder = recorder(10, 100);
		decide(recorder);

		DecisionRecord record = recorder.recent().get(0);
		assertThat(record.pool()).isEqualTo(POOL);
		assertThat(record.model()).isEqualTo("demo-llama");
		assertThat(record.adapter()).isEqualTo("support");
		assertThat(record.profile()).isEqualTo("default");
		assertThat(record.outcome()).isEqualTo(DecisionOutcome.PICKED);
		assertThat(record.outcome().label()).isEqualTo("picked");
		assertThat(record.chosen()).isEqualTo("10.0.0.1:1");
		assertThat(record.candidateCount()).isEqualTo(2);
		// queue: 1, 0 ; kv-cache: 0.5, 1 ; totals (2·q + 2·kv) / 4: 0.75, 0.5
		assertThat(record.scores()).hasSize(2);
		assertThat(record.scores().get(0).endpoint()).isEqualTo("10.0.0.1:1");
		assertThat(record.scores().get(0).scores()).containsExactly(entry("queue", 1.0), entry("kv-cache", 0.5));
		assertThat(record.scores().get(0).total()).isCloseTo(0.75, within(1e-12));
		assertThat(record.scores().get(1).scores()).containsExactly(entry("queue", 0.0), entry("kv-cache", 1.0));
		assertThat(record.scores().get(1).total()).isCloseTo(0.5, within(1e-12));
	}

	@Test
	void sampledOutDecisionsAreMeteredButNotKept() {
		DecisionRecorder recorder = recorder(10, 1);
		decide(recorder);
		decide(recorder);
		decide(recorder);

		assertThat(recorder.recent()).hasSize(1);
		assertThat(registry.get(DecisionRecorder.DURATION_METER).tag("pool", POOL).tag("profile", "default").timer()
			.count()).isEqualTo(3);
		assertThat(registry.get(DecisionRecorder.PICKS_METER).tag("pool", POOL).tag("endpoint", "10.0.0.1:1")
			.functionCounter()
			.count()).isEqualTo(3);
	}

	@Test
	void recordsNoCandidateFailedOpenAndErrorOutcomes() {
		DecisionRecorder recorder = recorder(10, 100);
		SchedulingCycle cycle = cycle(false);
		EndpointFilter dropsAll = new EndpointFilter() {
			@Override
			public String name() {
				return "drops-all";
			}

			@Override
			public List<Endpoint> filter(SchedulingCycle cycle, List<Endpoint> candidates) {
				return List.of();
			}
		};
		SchedulingProfile dropping = new SchedulingProfile("dropping", List.of(dropsAll), List.of(),
				new MaxScorePicker());
		SchedulingResult empty = scheduler.schedule(dropping, cycle, List.of(endpoint(9)));

		recorder.record(cycle, empty);
		recorder.recordFailedOpen(cycle, empty, busy);
		recorder.recordError(cycle, profile, 1_000);

		assertThat(recorder.recent()).extracting(DecisionRecord::outcome)
			.containsExactly(DecisionOutcome.ERROR, DecisionOutcome.FAILED_OPEN, DecisionOutcome.NO_CANDIDATES);
		assertThat(recorder.recent().get(1).chosen()).isEqualTo("10.0.0.1:2");
		assertThat(recorder.recent().get(2).candidateCount()).isZero();
		assertThat(registry.get(DecisionRecorder.PICKS_METER).tag("endpoint", "10.0.0.1:2").functionCounter().count())
			.isEqualTo(1);
	}

	@Test
	void keepsEachScorersWeightThePickerAndWhatEachFilterRemoved() {
		DecisionRecorder recorder = recorder(10, 100);
		Endpoint stale = endpoint(3, Fixtures.metrics(0, 0, 0.0), 1_000);
		SchedulingCycle cycle = cycle(recorder.shouldRecord());
		recorder.record(cycle, scheduler.schedule(profile, cycle, List.of(idle, stale, busy)));

		DecisionRecord record = recorder.recent().get(0);
		assertThat(record.picker()).isEqualTo("max-score");
		assertThat(record.weights()).containsExactly(entry("queue", 2.0), entry("kv-cache", 2.0));
		assertThat(record.filteredOut()).containsExactly(new DecisionRecord.FilteredOut("10.0.0.1:3", "ready"));
		assertThat(record.scores()).extracting(DecisionRecord.EndpointScores::endpoint)
			.containsExactly("10.0.0.1:1", "10.0.0.1:2");
	}

	@Test
	void numbersRecordsSoAReaderCanAskForTheNewOnes() {
		DecisionRecorder recorder = recorder(10, 100);
		decide(recorder);
		decide(recorder);
		long seen = recorder.recent().get(0).sequence();
		decide(recorder);
		decide(recorder);

		assertThat(recorder.recent()).extracting(DecisionRecord::sequence).containsExactly(4L, 3L, 2L, 1L);
		assertThat(recorder.recentSince(seen)).extracting(DecisionRecord::sequence).containsExactly(4L, 3L);
		assertThat(recorder.recentSince(4)).isEmpty();
	}

	@Test
	void countsPicksPerEndpointWhetherRecordedOrNot() {
		DecisionRecorder recorder = recorder(10, 1);
		decide(recorder);
		decide(recorder);

		assertThat(recorder.picks(POOL, idle.id())).isEqualTo(2);
		assertThat(recorder.picks(POOL, busy.id())).isZero();
		assertThat(recorder.picks("other", idle.id())).isZero();
	}

	@Test
	void capacityZeroRecordsNothing() {
		DecisionRecorder recorder = recorder(0, 100);

		assertThat(recorder.shouldRecord()).isFalse();
		decide(recorder);
		assertThat(recorder.recent()).isEmpty();
	}

	private void decide(DecisionRecorder recorder) {
		SchedulingCycle cycle = cycle(recorder.shouldRecord());
		recorder.record(cycle, scheduler.schedule(profile, cycle, List.of(idle, busy)));
	}

	private SchedulingCycle cycle(boolean recordScores) {
		return new SchedulingCycle(request(POOL, "support"), clock.millis(), new SplittableRandom(1), recordScores);
	}

	private DecisionRecorder recorder(int capacity, int maxPerSecond) {
		return new DecisionRecorder(new DecisionRecorderProperties(capacity, maxPerSecond), clock, registry);
	}
}
