package io.infergate.routing.model;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;

import io.infergate.routing.actuate.InferenceReport;

/**
 * A weighted split of one model over its targets. With weights w<sub>i</sub> (reduced by their greatest common
 * divisor) and W = Σw<sub>i</sub>, the slots 0..W−1 are dealt to the targets in order, w<sub>i</sub> each, and a
 * request takes the target of one slot:
 * <ul>
 * <li><b>with a sticky key</b> k: slot = XXH3(seed, XXH3(k)) mod W, the seed being the model's name, so one caller
 * always lands on the same target (on every gateway replica), and callers spread over the targets by weight;</li>
 * <li><b>without</b>: the n-th request of this model on this gateway takes slot = n·s mod W, with the stride s
 * coprime to W and close to W/φ. Every W consecutive requests take every slot once, so the split is exact over each
 * W requests (90/10: one request in ten, evenly spaced), and the order spreads the minority target's requests out.
 * </li>
 * </ul>
 * A pick is one atomic increment or one hash, then a scan of the targets; it allocates nothing.
 */
final class WeightedTargets {

	private static final Hasher64 XXH3 = Hashing.xxh3_64();

	private static final double GOLDEN_RATIO = (1 + Math.sqrt(5)) / 2;

	private final ModelRoute[] routes;

	private final int[] weights;

	/** slotEnds[i]: the first slot after target i's. */
	private final long[] slotEnds;

	private final long slots;

	private final long stride;

	private final long seed;

	private final AtomicLong sequence = new AtomicLong();

	private final LongAdder[] requests;

	/**
	 * @param routes the targets
	 * @param weights their weights: each at least 0, at least one above 0, summing to at most
	 * {@link Integer#MAX_VALUE}
	 */
	WeightedTargets(String model, List<ModelRoute> routes, List<Integer> weights) {
		this.routes = routes.toArray(new ModelRoute[0]);
		this.weights = weights.stream().mapToInt(Integer::intValue).toArray();
		int divisor = 0;
		for (int weight : this.weights) {
			divisor = gcd(divisor, weight);
		}
		this.slotEnds = new long[this.weights.length];
		long end = 0;
		for (int i = 0; i < this.weights.length; i++) {
			end += this.weights[i] / divisor;
			this.slotEnds[i] = end;
		}
		this.slots = end;
		this.stride = coprimeStride(end);
		this.seed = XXH3.hashCharsToLong(model);
		this.requests = new LongAdder[this.routes.length];
		for (int i = 0; i < this.requests.length; i++) {
			this.requests[i] = new LongAdder();
		}
	}

	/** The target for a request with {@code stickyKey}, or for the next unkeyed request when it is {@code null}. */
	ModelRoute pick(String stickyKey) {
		long slot;
		if (stickyKey != null) {
			slot = Long.remainderUnsigned(XXH3.hashLongLongToLong(seed, XXH3.hashCharsToLong(stickyKey)), slots);
		}
		else {
			slot = (Math.floorMod(sequence.getAndIncrement(), slots) * stride) % slots;
		}
		int target = 0;
		while (slot >= slotEnds[target]) {
			target++;
		}
		requests[target].increment();
		return routes[target];
	}

	List<ModelRoute> routes() {
		return List.of(routes);
	}

	List<InferenceReport.Target> report() {
		List<InferenceReport.Target> targets = new ArrayList<>(routes.length);
		for (int i = 0; i < routes.length; i++) {
			ModelRoute route = routes[i];
			targets.add(new InferenceReport.Target(route.pool(), route.targetModel(), route.adapter(), weights[i],
					requests[i].sum()));
		}
		return targets;
	}

	/** The integer closest to slots/φ that shares no factor with slots: consecutive requests land far apart. */
	static long coprimeStride(long slots) {
		if (slots <= 2) {
			return 1;
		}
		long stride = Math.max(1, Math.round(slots / GOLDEN_RATIO));
		while (gcd(stride, slots) != 1) {
			stride++;
		}
		return stride;
	}

	private static int gcd(int a, int b) {
		return (int) gcd((long) a, (long) b);
	}

	private static long gcd(long a, long b) {
		while (b != 0) {
			long t = a % b;
			a = b;
			b = t;
		}
		return a;
	}
}
