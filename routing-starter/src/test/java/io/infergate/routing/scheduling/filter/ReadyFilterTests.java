package io.infergate.routing.scheduling.filter;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.saturation.SaturationDetector;
import io.infergate.routing.scheduling.saturation.SaturationProperties;
import io.infergate.routing.scheduling.saturation.StalenessPolicy;

import static io.infergate.routing.scheduling.Fixtures.cycle;
import static io.infergate.routing.scheduling.Fixtures.endpoint;
import static io.infergate.routing.scheduling.Fixtures.metrics;
import static org.assertj.core.api.Assertions.assertThat;

class ReadyFilterTests {

	private final Endpoint fresh = endpoint(1, metrics(0, 0, 0), 0);

	private final Endpoint atThreshold = endpoint(2, metrics(0, 0, 0), 200);

	private final Endpoint stale = endpoint(3, metrics(0, 0, 0), 201);

	private final Endpoint missing = endpoint(4);

	@Test
	void nameIsTheYamlKey() {
		assertThat(filter(StalenessPolicy.SATURATED).name()).isEqualTo(ReadyFilter.NAME).isEqualTo("ready");
	}

	@Test
	void dropsStaleAndMissingSnapshotsUnderSaturatedPolicy() {
		List<Endpoint> kept = filter(StalenessPolicy.SATURATED).filter(cycle(),
				List.of(fresh, stale, atThreshold, missing));

		assertThat(kept).containsExactly(fresh, atThreshold);
	}

	@Test
	void keepsStaleAndMissingSnapshotsUnderIgnorePolicy() {
		List<Endpoint> candidates = List.of(fresh, stale, missing);

		assertThat(filter(StalenessPolicy.IGNORE).filter(cycle(), candidates)).isSameAs(candidates);
	}

	@Test
	void returnsTheInputListWhenAllAreFresh() {
		List<Endpoint> candidates = List.of(fresh, atThreshold);

		assertThat(filter(StalenessPolicy.SATURATED).filter(cycle(), candidates)).isSameAs(candidates);
	}

	@Test
	void keepsAllWhenNoneIsFresh() {
		assertThat(filter(StalenessPolicy.SATURATED).filter(cycle(), List.of(stale, missing))).containsExactly(stale,
				missing);
	}

	private static ReadyFilter filter(StalenessPolicy policy) {
		return new ReadyFilter(
				new SaturationDetector(new SaturationProperties(5, 0.8, Duration.ofMillis(200), policy, 0.0)));
	}
}
