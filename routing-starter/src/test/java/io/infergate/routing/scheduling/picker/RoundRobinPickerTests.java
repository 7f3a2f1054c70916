package io.infergate.routing.scheduling.picker;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;

import org.junit.jupiter.api.Test;

import io.infergate.routing.scheduling.SchedulingCycle;

import static io.infergate.routing.scheduling.Fixtures.cycle;
import static io.infergate.routing.scheduling.Fixtures.request;
import static io.infergate.routing.scheduling.picker.PickerFixtures.endpoints;
import static org.assertj.core.api.Assertions.assertThat;

class RoundRobinPickerTests {

	private final RoundRobinPicker picker = new RoundRobinPicker();

	private final double[] totals = { 0.9, 0.1, 0.5 };

	@Test
	void nameIsTheYamlKey() {
		assertThat(picker.name()).isEqualTo(RoundRobinPicker.NAME).isEqualTo("round-robin");
	}

	@Test
	void rotatesOverTheCandidatesIgnoringTotals() {
		SchedulingCycle cycle = cycle(request("a", null));
		List<Integer> picks = new ArrayList<>();
		for (int i = 0; i < 7; i++) {
			picks.add(picker.pick(cycle, endpoints(3), totals));
		}

		assertThat(picks).containsExactly(0, 1, 2, 0, 1, 2, 0);
	}

	@Test
	void keepsOneTurnPerPool() {
		SchedulingCycle poolA = cycle(request("a", null));
		SchedulingCycle poolB = cycle(request("b", null));

		assertThat(picker.pick(poolA, endpoints(3), totals)).isEqualTo(0);
		assertThat(picker.pick(poolA, endpoints(3), totals)).isEqualTo(1);
		assertThat(picker.pick(poolB, endpoints(3), totals)).isEqualTo(0);
		assertThat(picker.pick(poolA, endpoints(3), totals)).isEqualTo(2);
		assertThat(picker.pick(poolB, endpoints(3), totals)).isEqualTo(1);
	}

	@Test
	void concurrentDecisionsTakeDistinctTurns() throws InterruptedException {
		int threads = 4;
		int perThread = 3_000;
		AtomicIntegerArray counts = new AtomicIntegerArray(3);
		List<Thread> workers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			Thread worker = new Thread(() -> {
				SchedulingCycle cycle = cycle(request("a", null));
				for (int i = 0; i < perThread; i++) {
					counts.incrementAndGet(picker.pick(cycle, endpoints(3), totals));
				}
			});
			workers.add(worker);
			worker.start();
		}
		for (Thread worker : workers) {
			worker.join();
		}

		// 12,000 turns over 3 candidates: exactly 4,000 each
		assertThat(counts.get(0)).isEqualTo(4_000);
		assertThat(counts.get(1)).isEqualTo(4_000);
		assertThat(counts.get(2)).isEqualTo(4_000);
	}

	@Test
	void doesNotReadTheTotals() {
		assertThat(picker.readsTotals()).isFalse();
		assertThat(picker.pickProbabilities(new double[] { 0.1, 0.9 })).isNull();
	}
}
