package io.infergate.routing.scheduling.saturation;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.infergate.routing.endpoint.Endpoint;

import static io.infergate.routing.scheduling.Fixtures.NOW_MILLIS;
import static io.infergate.routing.scheduling.Fixtures.endpoint;
import static io.infergate.routing.scheduling.Fixtures.metrics;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class SaturationDetectorTests {

	private final SaturationDetector defaults = new SaturationDetector(SaturationProperties.defaults());

	@Test
	void defaultsAreLlmDs() {
		SaturationProperties properties = SaturationProperties.defaults();

		assertThat(properties.queueDepthThreshold()).isEqualTo(5);
		assertThat(properties.kvCacheThreshold()).isEqualTo(0.8);
		assertThat(properties.stalenessThreshold()).isEqualTo(Duration.ofMillis(200));
		assertThat(properties.stalenessPolicy()).isEqualTo(StalenessPolicy.SATURATED);
		assertThat(properties.headroom()).isZero();
	}

	@Test
	void snapshotOlderThanThresholdOrMissingIsStale() {
		assertThat(defaults.isStale(endpoint(1, metrics(0, 0, 0), 200), NOW_MILLIS)).isFalse();
		assertThat(defaults.isStale(endpoint(1, metrics(0, 0, 0), 201), NOW_MILLIS)).isTrue();
		assertThat(defaults.isStale(endpoint(1), NOW_MILLIS)).isTrue();
	}

	@Test
	void queueRoomIsWhatEachUnsaturatedEndpointTakesBeforeItIsOverTheQueueThreshold() {
		// threshold 5: waiting 0 takes 6, waiting 5 takes 1; over a threshold or stale takes none
		assertThat(defaults.queueRoom(List.of(endpoint(1, 0, 0, 0.1)), NOW_MILLIS)).isEqualTo(6);
		assertThat(defaults.queueRoom(List.of(endpoint(1, 5, 0, 0.1), endpoint(2, 0, 0, 0.1)), NOW_MILLIS))
			.isEqualTo(7);
		assertThat(defaults.queueRoom(List.of(endpoint(1, 6, 0, 0.1)), NOW_MILLIS)).isZero();
		assertThat(defaults.queueRoom(List.of(endpoint(1, 0, 0, 0.81)), NOW_MILLIS)).isZero();
		assertThat(defaults.queueRoom(List.of(endpoint(1, metrics(0, 0, 0), 201)), NOW_MILLIS)).isZero();
	}

	@Test
	void aboveEitherThresholdIsSaturatedAtTheThresholdIsNot() {
		assertThat(defaults.isSaturated(endpoint(1, 5, 0, 0.8), NOW_MILLIS)).isFalse();
		assertThat(defaults.isSaturated(endpoint(1, 6, 0, 0.0), NOW_MILLIS)).isTrue();
		assertThat(defaults.isSaturated(endpoint(1, 0, 0, 0.81), NOW_MILLIS)).isTrue();
	}

	@Test
	void headroomRaisesBothLimits() {
		SaturationDetector detector = detector(StalenessPolicy.SATURATED, 0.2);

		// queue limit 5 * 1.2 = 6, KV limit 0.8 * 1.2 = 0.96
		assertThat(detector.isSaturated(endpoint(1, 6, 0, 0.96), NOW_MILLIS)).isFalse();
		assertThat(detector.isSaturated(endpoint(1, 7, 0, 0.0), NOW_MILLIS)).isTrue();
		assertThat(detector.isSaturated(endpoint(1, 0, 0, 0.97), NOW_MILLIS)).isTrue();
	}

	@Test
	void staleOrMissingIsSaturatedUnderSaturatedPolicy() {
		assertThat(defaults.isSaturated(endpoint(1, metrics(0, 0, 0), 500), NOW_MILLIS)).isTrue();
		assertThat(defaults.isSaturated(endpoint(1), NOW_MILLIS)).isTrue();
		assertThat(defaults.isReady(endpoint(1), NOW_MILLIS)).isFalse();
	}

	@Test
	void staleIsJudgedOnLastSnapshotAndMissingIsNotSaturatedUnderIgnorePolicy() {
		SaturationDetector ignore = detector(StalenessPolicy.IGNORE, 0.0);

		assertThat(ignore.isSaturated(endpoint(1, metrics(0, 0, 0), 500), NOW_MILLIS)).isFalse();
		assertThat(ignore.isSaturated(endpoint(1, metrics(9, 0, 0), 500), NOW_MILLIS)).isTrue();
		assertThat(ignore.isSaturated(endpoint(1), NOW_MILLIS)).isFalse();
		assertThat(ignore.isReady(endpoint(1), NOW_MILLIS)).isTrue();
	}

	@Test
	void poolIsSaturatedWhenEveryCandidateIsOrWhenEmpty() {
		Endpoint busy = endpoint(1, 9, 0, 0.1);
		Endpoint full = endpoint(2, 0, 0, 0.95);
		Endpoint idle = endpoint(3, 0, 0, 0.1);

		assertThat(defaults.isPoolSaturated(List.of(busy, full), NOW_MILLIS)).isTrue();
		assertThat(defaults.isPoolSaturated(List.of(busy, full, idle), NOW_MILLIS)).isFalse();
		assertThat(defaults.isPoolSaturated(List.of(), NOW_MILLIS)).isTrue();
	}

	@Test
	void utilizationIsTheMeanRooflineOfTheCandidates() {
		// max(5/5, 0.4/0.8) = 1.0 ; max(1/5, 0.6/0.8) = 0.75 ; stale = 1.0 under saturated
		List<Endpoint> candidates = List.of(endpoint(1, 5, 0, 0.4), endpoint(2, 1, 0, 0.6), endpoint(3));

		assertThat(defaults.utilization(candidates, NOW_MILLIS)).isCloseTo((1.0 + 0.75 + 1.0) / 3, within(1e-12));
		assertThat(detector(StalenessPolicy.IGNORE, 0).utilization(candidates, NOW_MILLIS))
			.isCloseTo((1.0 + 0.75) / 2, within(1e-12));
		assertThat(detector(StalenessPolicy.IGNORE, 0).utilization(List.of(endpoint(3)), NOW_MILLIS)).isZero();
		assertThat(defaults.utilization(List.of(), NOW_MILLIS)).isEqualTo(1.0);
	}

	static SaturationDetector detector(StalenessPolicy policy, double headroom) {
		return new SaturationDetector(new SaturationProperties(5, 0.8, Duration.ofMillis(200), policy, headroom));
	}
}
