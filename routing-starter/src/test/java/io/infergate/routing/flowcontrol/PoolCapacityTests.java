package io.infergate.routing.flowcontrol;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointSnapshot;
import io.infergate.routing.scheduling.saturation.SaturationDetector;
import io.infergate.routing.scheduling.saturation.SaturationProperties;

import static io.infergate.routing.scheduling.Fixtures.NOW_MILLIS;
import static io.infergate.routing.scheduling.Fixtures.endpoint;
import static io.infergate.routing.scheduling.Fixtures.metrics;
import static org.assertj.core.api.Assertions.assertThat;

class PoolCapacityTests {

	private final PoolCapacity saturation = PoolCapacity
		.saturation(new SaturationDetector(SaturationProperties.defaults()));

	/** An endpoint scraped just now with {@code waiting} queued and this gateway's {@code inFlight} requests on it. */
	private static Endpoint scraped(int port, int waiting, int inFlight) {
		Endpoint endpoint = endpoint(port);
		endpoint.publish(new EndpointSnapshot(metrics(waiting, 256, 0.5), NOW_MILLIS, inFlight));
		return endpoint;
	}

	@Test
	void requestsDispatchedSinceTheScrapesCountAsWaitingUntilEveryEndpointWouldBeOverItsQueueThreshold() {
		// queue room (threshold 5): 5 - 3 + 1 = 3 and 5 - 5 + 1 = 1; 10 + 6 = 16 in flight when scraped
		List<Endpoint> ready = List.of(scraped(1, 3, 10), scraped(2, 5, 6));

		assertThat(saturation.hasRoom(ready, 16, 0, NOW_MILLIS)).as("nothing dispatched since").isTrue();
		assertThat(saturation.hasRoom(ready, 19, 0, NOW_MILLIS)).as("3 dispatched since, room for 4").isTrue();
		assertThat(saturation.hasRoom(ready, 20, 0, NOW_MILLIS)).as("4 dispatched since fill it").isFalse();
		assertThat(saturation.hasRoom(ready, 18, 0, NOW_MILLIS)).as("after 2 of them ended").isTrue();
	}

	@Test
	void aSaturatedPoolHasNoRoomUntilAScrapeShowsSomeEndpointAtOrUnderTheThresholds() {
		List<Endpoint> ready = List.of(scraped(1, 6, 10), scraped(2, 9, 10));

		assertThat(saturation.hasRoom(ready, 0, 0, NOW_MILLIS)).isFalse();
	}
}
