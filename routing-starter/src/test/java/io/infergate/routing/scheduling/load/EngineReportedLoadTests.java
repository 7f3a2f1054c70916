package io.infergate.routing.scheduling.load;

import org.junit.jupiter.api.Test;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointSnapshot;

import static io.infergate.routing.scheduling.Fixtures.NOW_MILLIS;
import static io.infergate.routing.scheduling.Fixtures.endpoint;
import static io.infergate.routing.scheduling.Fixtures.metrics;
import static org.assertj.core.api.Assertions.assertThat;

class EngineReportedLoadTests {

	private final EngineReportedLoad load = new EngineReportedLoad();

	@Test
	void nameIsTheYamlKey() {
		assertThat(load.name()).isEqualTo(EngineReportedLoad.NAME).isEqualTo("engine-reported");
	}

	@Test
	void addsThisReplicasDispatchesSinceTheScrapeToTheEnginesCount() {
		// the engine saw 3 waiting + 5 running while this replica had 2 in flight; it has sent 4 more since
		Endpoint endpoint = scraped(3, 5, 2);
		inFlight(endpoint, 6);

		// 3 + 5 + (6 − 2)
		assertThat(load.requests(endpoint)).isEqualTo(12);
	}

	@Test
	void takesOffThisReplicasRequestsThatFinishedSinceTheScrape() {
		// 10 in flight at the scrape, 7 of them finished since, one new one sent
		Endpoint endpoint = scraped(0, 10, 10);
		inFlight(endpoint, 4);

		// 0 + 10 + (4 − 10)
		assertThat(load.requests(endpoint)).isEqualTo(4);
	}

	@Test
	void countsOtherReplicasRequestsTheEngineReportedWhichInFlightMisses() {
		// 12 running, of which this replica sent 3; nothing changed since
		Endpoint endpoint = scraped(0, 12, 3);
		inFlight(endpoint, 3);

		assertThat(load.requests(endpoint)).isEqualTo(12);
		assertThat(InFlightLoad.INSTANCE.requests(endpoint)).isEqualTo(3);
	}

	@Test
	void isNeverNegative() {
		// the engine had already finished the 5 requests this replica still counted at the scrape
		Endpoint endpoint = scraped(0, 0, 5);

		assertThat(load.requests(endpoint)).isZero();
	}

	@Test
	void isTheInFlightCountBeforeTheFirstScrape() {
		Endpoint endpoint = endpoint(1);
		inFlight(endpoint, 2);

		assertThat(load.requests(endpoint)).isEqualTo(2);
	}

	private static Endpoint scraped(int waiting, int running, int inFlightAtScrape) {
		Endpoint endpoint = endpoint(1);
		endpoint.publish(new EndpointSnapshot(metrics(waiting, running, 0.5), NOW_MILLIS, inFlightAtScrape));
		return endpoint;
	}

	private static void inFlight(Endpoint endpoint, int requests) {
		for (int i = 0; i < requests; i++) {
			endpoint.acquire(100);
		}
	}
}
