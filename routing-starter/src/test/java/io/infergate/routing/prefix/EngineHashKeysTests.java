package io.infergate.routing.prefix;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The engine-hash map agrees with a {@link HashMap} through random puts and removes, collisions included. */
class EngineHashKeysTests {

	@Test
	void agreesWithAHashMapThroughRandomPutsAndRemoves() {
		SplittableRandom random = new SplittableRandom(5);
		EngineHashKeys keys = new EngineHashKeys(1_000_000);
		Map<Long, Long> expected = new HashMap<>();
		for (int step = 0; step < 200_000; step++) {
			// a small universe of hashes, so runs of probes form and removals shift them back
			long hash = random.nextInt(5_000) * 1024L;
			if (random.nextInt(3) == 0) {
				Long had = expected.remove(hash);
				assertThat(keys.remove(hash)).isEqualTo((had != null) ? had : 0L);
			}
			else {
				long key = random.nextLong(1, Long.MAX_VALUE);
				expected.put(hash, key);
				keys.put(hash, key);
			}
			if (step % 10_000 == 0) {
				assertThat(keys.size()).isEqualTo(expected.size());
				expected.forEach((h, k) -> assertThat(keys.get(h)).isEqualTo(k));
			}
		}
		assertThat(keys.size()).isEqualTo(expected.size());
		expected.forEach((h, k) -> assertThat(keys.get(h)).isEqualTo(k));
		assertThat(keys.get(-1)).isZero();
	}

	@Test
	void reachingItsCapacityStartsAfresh() {
		EngineHashKeys keys = new EngineHashKeys(3);
		keys.put(1, 10);
		keys.put(2, 20);
		keys.put(3, 30);
		keys.put(4, 40);

		assertThat(keys.size()).isEqualTo(1);
		assertThat(keys.get(1)).isZero();
		assertThat(keys.get(4)).isEqualTo(40);
	}
}
