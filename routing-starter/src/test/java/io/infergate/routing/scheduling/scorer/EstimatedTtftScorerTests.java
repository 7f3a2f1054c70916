package io.infergate.routing.scheduling.scorer;

import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointSnapshot;
import io.infergate.routing.prefix.PrefixIndex;
import io.infergate.routing.prefix.PrefixIndexProperties;
import io.infergate.routing.scheduling.Scheduler;
import io.infergate.routing.scheduling.SchedulingCycle;
import io.infergate.routing.scheduling.SchedulingProfile;
import io.infergate.routing.scheduling.SchedulingProfile.WeightedScorer;
import io.infergate.routing.scheduling.SchedulingResult;
import io.infergate.routing.scheduling.filter.LoraAffinityFilter;
import io.infergate.routing.scheduling.filter.ReadyFilter;
import io.infergate.routing.scheduling.load.EngineReportedLoad;
import io.infergate.routing.scheduling.picker.MaxScorePicker;
import io.infergate.routing.scheduling.saturation.SaturationDetector;
import io.infergate.routing.scheduling.saturation.SaturationProperties;

import static io.infergate.routing.prefix.PrefixFixtures.diverging;
import static io.infergate.routing.prefix.PrefixFixtures.prompt;
import static io.infergate.routing.prefix.PrefixFixtures.request;
import static io.infergate.routing.scheduling.Fixtures.NOW_MILLIS;
import static io.infergate.routing.scheduling.Fixtures.cycle;
import static io.infergate.routing.scheduling.Fixtures.endpoint;
import static io.infergate.routing.scheduling.Fixtures.metrics;
import static io.infergate.routing.scheduling.Fixtures.score;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class EstimatedTtftScorerTests {

	/** Round figures for hand computation: base 1000 µs, 10 µs per uncached token, 500 µs per in-flight request. */
	private static final EstimatedTtftScorer.Parameters ROUND = new EstimatedTtftScorer.Parameters(1000, 10, 500);

	private final PrefixIndex index = new PrefixIndex(PrefixIndexProperties.defaults());

	private final EstimatedTtftScorer scorer = new EstimatedTtftScorer(EstimatedTtftScorer.NAME, index, ROUND);

	private final Endpoint cached = endpoint(1, 0, 0, 0.1);

	private final Endpoint cold = endpoint(2, 0, 0, 0.1);

	/** 4 blocks of 64 characters: 64 tokens, 16 per block. */
	private final String prompt = prompt("p", 4);

	@Test
	void nameIsTheYamlKey() {
		assertThat(scorer.name()).isEqualTo(EstimatedTtftScorer.NAME).isEqualTo("estimated-ttft");
	}

	@Test
	void prefersTheCachedEndpointWhenLoadIsBalanced() {
		dispatch(prompt, cached);

		double[] scores = score(scorer, cycle(request(prompt)), List.of(cached, cold));

		// cached: 1000 + 10·0 + 500·0 = 1000; cold: 1000 + 10·64 + 0 = 1640
		assertThat(scores).containsExactly(new double[] { 1.0, 1000.0 / 1640 }, within(1e-12));
	}

	@Test
	void abandonsAffinityWhenTheCachedEndpointIsOverloaded() {
		dispatch(prompt, cached);
		inFlight(cached, 3);

		double[] scores = score(scorer, cycle(request(prompt)), List.of(cached, cold));

		// cached: 1000 + 0 + 500·3 = 2500; cold: 1640
		assertThat(scores).containsExactly(new double[] { 1640.0 / 2500, 1.0 }, within(1e-12));
	}

	@Test
	void aPartialMatchSavesItsShareOfThePrefill() {
		dispatch(diverging("p", 2, 4), cached);
		inFlight(cached, 1);

		double[] scores = score(scorer, cycle(request(prompt)), List.of(cached, cold));

		// cached: 2 blocks = 32 tokens cached, 1000 + 10·32 + 500·1 = 1820; cold: 1640
		assertThat(scores).containsExactly(new double[] { 1640.0 / 1820, 1.0 }, within(1e-12));
	}

	@Test
	void withNothingCachedRanksAsLeastRequest() {
		inFlight(cached, 2);

		double[] scores = score(scorer, cycle(request(prompt)), List.of(cached, cold));

		// 1000 + 640 + 1000 = 2640 against 1640
		assertThat(scores).containsExactly(new double[] { 1640.0 / 2640, 1.0 }, within(1e-12));
	}

	@Test
	void hybridProfileTradesACachedPrefixForAtMostThirtyFiveRequestsOfImbalanceByDefault() {
		EstimatedTtftScorer defaults = new EstimatedTtftScorer(EstimatedTtftScorer.NAME, index,
				EstimatedTtftScorer.Parameters.defaults());
		SaturationDetector detector = new SaturationDetector(SaturationProperties.defaults());
		SchedulingProfile hybrid = new SchedulingProfile("hybrid",
				List.of(new ReadyFilter(detector), new LoraAffinityFilter()),
				List.of(new WeightedScorer(defaults, 1)), new MaxScorePicker());
		// 8,192 characters: 2,048 tokens, all cached on one endpoint: 2,048 · 17.25 µs = 35,328 µs of prefill saved,
		// 35.3 in-flight requests at 1,000 µs each
		String shared = prompt("system", 128);
		index.onDispatch(cycle(request(shared)), cached);

		inFlight(cached, 35);
		assertThat(schedule(hybrid, shared).chosen()).isSameAs(cached);

		inFlight(cached, 1);
		assertThat(schedule(hybrid, shared).chosen()).isSameAs(cold);
	}

	@Test
	void weighsTheLoadTheProfileNames() {
		// cached holds the prompt and this replica has nothing in flight anywhere, but the engines report 4 requests
		// on cached and none on cold
		dispatch(prompt, cached);
		cached.publish(new EndpointSnapshot(metrics(1, 3, 0.1), NOW_MILLIS, 0));
		SchedulingProfile engineLoad = new SchedulingProfile("engine-load", List.of(),
				List.of(new WeightedScorer(scorer, 1)), new MaxScorePicker(), new EngineReportedLoad());
		SchedulingProfile inFlightLoad = new SchedulingProfile("in-flight-load", List.of(),
				List.of(new WeightedScorer(scorer, 1)), new MaxScorePicker());

		// engine-reported: cached 1000 + 0 + 500·4 = 3000 against cold 1640; in flight: 1000 against 1640
		assertThat(schedule(engineLoad, prompt).totals()).containsExactly(new double[] { 1640.0 / 3000, 1.0 },
				within(1e-12));
		assertThat(schedule(inFlightLoad, prompt).chosen()).isSameAs(cached);
	}

	private SchedulingResult schedule(SchedulingProfile profile, String text) {
		SchedulingCycle cycle = new SchedulingCycle(request(text), NOW_MILLIS, new SplittableRandom(1), false);
		return new Scheduler().schedule(profile, cycle, List.of(cached, cold));
	}

	private void dispatch(String text, Endpoint endpoint) {
		index.onDispatch(cycle(request(text)), endpoint);
	}

	private static void inFlight(Endpoint endpoint, int requests) {
		for (int i = 0; i < requests; i++) {
			endpoint.acquire(100);
		}
	}
}
