package io.infergate.routing.scheduling.load;

import org.junit.jupiter.api.Test;

import io.infergate.routing.endpoint.Endpoint;

import static io.infergate.routing.scheduling.Fixtures.endpoint;
import static org.assertj.core.api.Assertions.assertThat;

class InFlightLoadTests {

	@Test
	void nameIsTheYamlKey() {
		assertThat(new InFlightLoad().name()).isEqualTo(InFlightLoad.NAME).isEqualTo("in-flight");
	}

	@Test
	void isTheGatewaysOwnInFlightCountWhateverTheEngineReports() {
		Endpoint endpoint = endpoint(1, 7, 20, 0.9);
		endpoint.acquire(100);
		endpoint.acquire(100);
		endpoint.acquire(100);
		endpoint.release(100);

		assertThat(InFlightLoad.INSTANCE.requests(endpoint)).isEqualTo(2);
	}
}
