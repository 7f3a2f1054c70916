package io.infergate.routing.scheduling;

import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.SchedulingProfile.WeightedScorer;
import io.infergate.routing.scheduling.filter.ReadyFilter;
import io.infergate.routing.scheduling.filter.SaturationFilter;
import io.infergate.routing.scheduling.picker.MaxScorePicker;
import io.infergate.routing.scheduling.saturation.SaturationDetector;
import io.infergate.routing.scheduling.saturation.SaturationProperties;
import io.infergate.routing.scheduling.scorer.MetricScorer;

import static io.infergate.routing.scheduling.Fixtures.NOW_MILLIS;
import static io.infergate.routing.scheduling.Fixtures.POOL;
import static io.infergate.routing.scheduling.Fixtures.endpoint;
import static io.infergate.routing.scheduling.Fixtures.metrics;
import static io.infergate.routing.scheduling.Fixtures.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The default profile's plugins composed by the real {@link Scheduler} on hand-made endpoints. */
class BuiltInPluginsSchedulingTests {

	private final SaturationDetector detector = new SaturationDetector(SaturationProperties.defaults());

	private final SchedulingProfile profile = new SchedulingProfile("default",
			List.of(new ReadyFilter(detector), new SaturationFilter(detector)),
			List.of(new WeightedScorer(MetricScorer.predefined(MetricScorer.QUEUE), 2),
						new WeightedScorer(MetricScorer.predefined(MetricScorer.KV_CACHE), 2)),
			new MaxScorePicker());

	private final Endpoint nearlyFullCache = endpoint(1, 0, 0, 0.8);

	private final Endpoint shortQueueEmptyCache = endpoint(2, 1, 0, 0.0);

	private final Endpoint saturatedQueue = endpoint(3, 6, 0, 0.0);

	private final Endpoint stale = endpoint(4, metrics(0, 0, 0.0), 1_000);

	private final Endpoint longQueueEmptyCache = endpoint(5, 4, 0, 0.0);

	@Test
	void picksWhatTheFormulaSays() {
		SchedulingResult result = schedule(false);

		// filters drop the stale endpoint and the one whose queue is over 5.
		// queue (min 0, max 4): 1, 0.75, 0 ; kv-cache: 0.2, 1, 1
		// totals (2·queue + 2·kv) / 4: 0.6, 0.875, 0.5
		assertThat(result.candidates()).containsExactly(nearlyFullCache, shortQueueEmptyCache, longQueueEmptyCache);
		assertThat(result.totals()).containsExactly(new double[] { 0.6, 0.875, 0.5 }, within(1e-12));
		assertThat(result.chosen()).isSameAs(shortQueueEmptyCache);
		assertThat(result.rawScores()).isNull();
		assertThat(result.filteredOut()).isNull();
	}

	@Test
	void keepsEachScorersRawScoresWhenAsked() {
		SchedulingResult result = schedule(true);

		assertThat(result.rawScores()[0]).containsExactly(new double[] { 1.0, 0.75, 0.0 }, within(1e-12));
		assertThat(result.rawScores()[1]).containsExactly(new double[] { 0.2, 1.0, 1.0 }, within(1e-12));
	}

	@Test
	void namesTheFilterThatRemovedEachEndpointWhenAsked() {
		SchedulingResult result = schedule(true);

		assertThat(result.filteredOut()).containsExactly(new FilterRemoval(stale, "ready"),
				new FilterRemoval(saturatedQueue, "saturation"));
	}

	private SchedulingResult schedule(boolean recordScores) {
		SchedulingCycle cycle = new SchedulingCycle(request(POOL, null), NOW_MILLIS, new SplittableRandom(7),
				recordScores);
		return new Scheduler().schedule(profile, cycle,
				List.of(nearlyFullCache, shortQueueEmptyCache, saturatedQueue, stale, longQueueEmptyCache));
	}
}
