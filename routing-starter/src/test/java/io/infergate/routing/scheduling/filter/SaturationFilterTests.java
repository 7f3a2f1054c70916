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

class SaturationFilterTests {

	private final SaturationFilter filter = new SaturationFilter(
			new SaturationDetector(SaturationProperties.defaults()));

	@Test
	void nameIsTheYamlKey() {
		assertThat(filter.name()).isEqualTo(SaturationFilter.NAME).isEqualTo("saturation");
	}

	@Test
	void dropsEndpointsAboveTheQueueOrKvThreshold() {
		Endpoint atLimits = endpoint(1, 5, 0, 0.8);
		Endpoint longQueue = endpoint(2, 6, 0, 0.1);
		Endpoint fullCache = endpoint(3, 0, 0, 0.85);
		Endpoint idle = endpoint(4, 0, 0, 0.0);

		assertThat(filter.filter(cycle(), List.of(atLimits, longQueue, fullCache, idle)))
			.containsExactly(atLimits, idle);
	}

	@Test
	void headroomLetsEndpointsBurstAboveTheThresholds() {
		SaturationFilter withHeadroom = new SaturationFilter(new SaturationDetector(
				new SaturationProperties(5, 0.8, Duration.ofMillis(200), StalenessPolicy.SATURATED, 0.4)));
		Endpoint queueOfSeven = endpoint(1, 7, 0, 0.1);
		Endpoint queueOfEight = endpoint(2, 8, 0, 0.1);

		// limit 5 * 1.4 = 7
		assertThat(withHeadroom.filter(cycle(), List.of(queueOfSeven, queueOfEight))).containsExactly(queueOfSeven);
	}

	@Test
	void dropsStaleEndpointsUnderSaturatedPolicy() {
		Endpoint stale = endpoint(1, metrics(0, 0, 0), 1000);
		Endpoint fresh = endpoint(2, 0, 0, 0.5);

		assertThat(filter.filter(cycle(), List.of(stale, fresh))).containsExactly(fresh);
	}

	@Test
	void keepsAllWhenAllAreSaturated() {
		List<Endpoint> candidates = List.of(endpoint(1, 9, 0, 0.1), endpoint(2, 0, 0, 0.99));

		assertThat(filter.filter(cycle(), candidates)).isSameAs(candidates);
	}

	@Test
	void returnsTheInputListWhenNoneIsSaturated() {
		List<Endpoint> candidates = List.of(endpoint(1, 1, 0, 0.1), endpoint(2, 2, 0, 0.2));

		assertThat(filter.filter(cycle(), candidates)).isSameAs(candidates);
	}
}
