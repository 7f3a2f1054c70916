package io.infergate.routing.actuate;

import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Status;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointMetrics;
import io.infergate.routing.endpoint.EndpointSnapshot;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.PoolProperties;
import io.infergate.routing.scheduling.saturation.SaturationDetector;
import io.infergate.routing.scheduling.saturation.SaturationProperties;

import static org.assertj.core.api.Assertions.assertThat;

class InferencePoolsHealthIndicatorTests {

	private static final long NOW = 1_700_000_000_000L;

	private final EndpointRegistry registry = new EndpointRegistry(Map.of("first", pool(1)));

	private final InferencePoolsHealthIndicator health = new InferencePoolsHealthIndicator(registry,
			new SaturationDetector(SaturationProperties.defaults()), Clock.fixed(Instant.ofEpochMilli(NOW),
					ZoneOffset.UTC), true);

	private static PoolProperties.Pool pool(int host) {
		return PoolProperties.Pool.of(List.of(URI.create("http://10.0.0." + host + ":8000")), null);
	}

	private void scraped(String pool, boolean fresh) {
		registry.sync(pool, registry.pool(pool).settings().endpoints());
		for (Endpoint endpoint : registry.pool(pool).endpoints()) {
			endpoint.setReady(true);
			endpoint.publish(new EndpointSnapshot(new EndpointMetrics(0, 0, 0.1, 16, 1000, 0, Set.of(), Set.of()),
					fresh ? NOW : NOW - 3_600_000, 0));
		}
	}

	@Test
	void aPoolConfiguredAtStartupWithoutAFreshEndpointTakesTheGatewayOutOfService() {
		scraped("first", false);

		assertThat(health.health().getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
		scraped("first", true);
		assertThat(health.health().getStatus()).isEqualTo(Status.UP);
	}

	@Test
	void aPoolAddedByAReloadCountsOnlyOnceItHasServed() {
		scraped("first", true);
		registry.addPool("second", pool(2));
		scraped("second", false);

		assertThat(health.health().getStatus()).isEqualTo(Status.UP);
		assertThat(health.health().getDetails().get("second").toString()).contains("added by a reload");

		scraped("second", true);
		assertThat(health.health().getStatus()).isEqualTo(Status.UP);
		scraped("second", false);
		assertThat(health.health().getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
	}

	@Test
	void aRetiringPoolDoesNotCount() {
		scraped("first", true);
		registry.addPool("second", pool(2));
		scraped("second", true);
		health.health();
		scraped("second", false);
		registry.retire("second");

		assertThat(health.health().getStatus()).isEqualTo(Status.UP);
		assertThat(health.health().getDetails().get("second").toString()).contains("retiring");
	}
}
