package io.infergate.routing.scheduling.filter;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.SchedulingCycle;

import static io.infergate.routing.scheduling.Fixtures.POOL;
import static io.infergate.routing.scheduling.Fixtures.cycle;
import static io.infergate.routing.scheduling.Fixtures.endpoint;
import static io.infergate.routing.scheduling.Fixtures.loraMetrics;
import static io.infergate.routing.scheduling.Fixtures.request;
import static org.assertj.core.api.Assertions.assertThat;

class LoraAffinityFilterTests {

	private final LoraAffinityFilter filter = new LoraAffinityFilter();

	private final SchedulingCycle supportBot = cycle(request(POOL, "support"));

	private final Endpoint running = endpoint(1, loraMetrics(1, Set.of("support"), Set.of()), 0);

	private final Endpoint freeSlot = endpoint(2, loraMetrics(2, Set.of("legal"), Set.of()), 0);

	private final Endpoint full = endpoint(3, loraMetrics(1, Set.of("legal"), Set.of("support")), 0);

	@Test
	void nameIsTheYamlKey() {
		assertThat(filter.name()).isEqualTo(LoraAffinityFilter.NAME).isEqualTo("lora-affinity");
	}

	@Test
	void keepsEndpointsRunningTheAdapterOrWithAFreeSlot() {
		assertThat(filter.filter(supportBot, List.of(running, full, freeSlot, endpoint(4))))
			.containsExactly(running, freeSlot);
	}

	@Test
	void keepsAllWhenNoneQualifies() {
		List<Endpoint> candidates = List.of(full, endpoint(4));

		assertThat(filter.filter(supportBot, candidates)).isSameAs(candidates);
	}

	@Test
	void keepsAllWhenTheRequestHasNoAdapter() {
		List<Endpoint> candidates = List.of(running, full);

		assertThat(filter.filter(cycle(), candidates)).isSameAs(candidates);
	}
}
