package io.infergate.routing.scheduling.scorer;

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
import static io.infergate.routing.scheduling.Fixtures.score;
import static org.assertj.core.api.Assertions.assertThat;

class LoraAffinityScorerTests {

	private final LoraAffinityScorer scorer = new LoraAffinityScorer();

	private final SchedulingCycle supportBot = cycle(request(POOL, "support"));

	@Test
	void nameIsTheYamlKey() {
		assertThat(scorer.name()).isEqualTo(LoraAffinityScorer.NAME).isEqualTo("lora-affinity");
	}

	@Test
	void scoresRunningFreeSlotWaitingAndNone() {
		Endpoint running = endpoint(1, loraMetrics(2, Set.of("support", "legal"), Set.of()), 0);
		Endpoint freeSlot = endpoint(2, loraMetrics(2, Set.of("legal"), Set.of()), 0);
		Endpoint waiting = endpoint(3, loraMetrics(2, Set.of("legal"), Set.of("support")), 0);
		Endpoint none = endpoint(4, loraMetrics(2, Set.of("legal", "sales"), Set.of()), 0);

		assertThat(score(scorer, supportBot, List.of(running, freeSlot, waiting, none)))
			.containsExactly(1.0, 0.8, 0.6, 0.0);
	}

	@Test
	void freeSlotOutranksWaitingWhenBothApply() {
		Endpoint waitingWithFreeSlot = endpoint(1, loraMetrics(4, Set.of(), Set.of("support")), 0);

		assertThat(score(scorer, supportBot, List.of(waitingWithFreeSlot))).containsExactly(0.8);
	}

	@Test
	void loraOffMeansNoFreeSlot() {
		Endpoint loraOff = endpoint(1, loraMetrics(0, Set.of(), Set.of()), 0);

		assertThat(score(scorer, supportBot, List.of(loraOff))).containsExactly(0.0);
	}

	@Test
	void endpointWithoutSnapshotScoresZero() {
		assertThat(score(scorer, supportBot, List.of(endpoint(1)))).containsExactly(0.0);
	}

	@Test
	void everyEndpointScoresOneWhenTheRequestHasNoAdapter() {
		Endpoint none = endpoint(1, loraMetrics(1, Set.of("legal"), Set.of()), 0);

		assertThat(score(scorer, cycle(), List.of(none, endpoint(2)))).containsExactly(1.0, 1.0);
	}
}
