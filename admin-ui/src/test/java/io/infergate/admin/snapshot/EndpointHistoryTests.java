package io.infergate.admin.snapshot;

import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointMetrics;
import io.infergate.routing.endpoint.EndpointSnapshot;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.PoolProperties;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.scheduling.MutableClock;
import io.infergate.routing.scheduling.SchedulingCycle;
import io.infergate.routing.scheduling.SchedulingProfile;
import io.infergate.routing.scheduling.SchedulingResult;
import io.infergate.routing.scheduling.decision.DecisionRecorder;
import io.infergate.routing.scheduling.decision.DecisionRecorderProperties;
import io.infergate.routing.scheduling.picker.MaxScorePicker;

import static org.assertj.core.api.Assertions.assertThat;

class EndpointHistoryTests {

	private static final long START_SECOND = 1_700_000_000L;

	private final MutableClock clock = new MutableClock(START_SECOND * 1000);

	private final EndpointRegistry registry = registry("http://10.0.0.1:8000", "http://10.0.0.2:8000");

	private final DecisionRecorder decisions = new DecisionRecorder(new DecisionRecorderProperties(10, 0), clock,
			new SimpleMeterRegistry());

	private final EndpointHistory history = new EndpointHistory(registry, decisions, clock);

	private final Endpoint first = registry.pool("p").endpoints().get(0);

	private final Endpoint second = registry.pool("p").endpoints().get(1);

	@Test
	void keepsEachSecondsQueueKvUseAndPicksPerSecond() {
		first.publish(new EndpointSnapshot(metrics(3, 0.25), clock.millis(), 0));
		history.sample();
		clock.advanceMillis(1000);
		pick(first, 4);
		first.publish(new EndpointSnapshot(metrics(5, 0.5), clock.millis(), 0));
		history.sample();

		EndpointHistory.Sample newest = history.newest("p", first.id());
		assertThat(newest).isEqualTo(new EndpointHistory.Sample(START_SECOND + 1, 5, 0.5, 4.0));
		EndpointHistory.SeriesView view = history.view().get("p").get("10.0.0.1:8000");
		assertThat(view.seconds()).containsExactly(START_SECOND, START_SECOND + 1);
		assertThat(view.waitingRequests()).containsExactly(3, 5);
		assertThat(view.picksPerSecond()).containsExactly(0.0, 4.0);
	}

	@Test
	void anEndpointWithoutMetricsHasGapsNotZeros() {
		history.sample();

		assertThat(history.newest("p", second.id())).isEqualTo(new EndpointHistory.Sample(START_SECOND, null, null, 0));
	}

	@Test
	void countsPicksOfTheLastMinuteOnly() {
		pick(first, 7);
		history.sample();
		for (int second = 1; second <= 70; second++) {
			clock.advanceMillis(1000);
			if (second == 30) {
				pick(first, 2);
			}
			history.sample();
		}
		pick(first, 1);

		// the sample a minute ago (second 10) already held the first 7 picks
		assertThat(history.picksLastMinute("p", first.id())).isEqualTo(3);
		assertThat(history.picksLastMinute("p", second.id())).isZero();
	}

	@Test
	void keepsFiveMinutesAndSpreadsPicksOverASkippedSecond() {
		for (int second = 0; second < EndpointHistory.SECONDS + 20; second++) {
			history.sample();
			clock.advanceMillis(1000);
		}
		clock.advanceMillis(1000); // the sampler missed a second
		pick(first, 6);
		history.sample();

		EndpointHistory.SeriesView view = history.view().get("p").get("10.0.0.1:8000");
		assertThat(view.seconds()).hasSize(EndpointHistory.SECONDS - 1);
		assertThat(view.seconds().get(view.seconds().size() - 1) - view.seconds().get(0))
			.isEqualTo(EndpointHistory.SECONDS - 1);
		assertThat(history.newest("p", first.id()).picksPerSecond()).isEqualTo(3.0);
	}

	@Test
	void dropsTheSeriesOfAnEndpointThatLeft() {
		history.sample();
		registry.sync("p", List.of(URI.create("http://10.0.0.1:8000")));
		clock.advanceMillis(1000);
		history.sample();

		assertThat(history.newest("p", second.id())).isNull();
		assertThat(history.view().get("p")).containsOnlyKeys("10.0.0.1:8000");
	}

	private void pick(Endpoint endpoint, int times) {
		SchedulingProfile profile = new SchedulingProfile("default", List.of(), List.of(), new MaxScorePicker());
		for (int i = 0; i < times; i++) {
			SchedulingCycle cycle = new SchedulingCycle(new InferenceRequest("m", "p", "m", null, "", 1, 1, false,
					null, 0), clock.millis(), new SplittableRandom(1), false);
			decisions.record(cycle, new SchedulingResult(profile, List.of(endpoint), new double[] { 0 }, null, null,
					endpoint, 0));
		}
	}

	private static EndpointMetrics metrics(int waiting, double kv) {
		return new EndpointMetrics(waiting, 0, kv, 16, 1000, 0, Set.of(), Set.of());
	}

	/** A registry with pool {@code p} of these endpoints, synchronized. */
	static EndpointRegistry registry(String... endpoints) {
		PoolProperties.Pool pool = PoolProperties.Pool.of(Arrays.stream(endpoints).map(URI::create).toList(), null);
		EndpointRegistry registry = new EndpointRegistry(Map.of("p", pool));
		registry.sync("p", pool.endpoints());
		return registry;
	}
}
