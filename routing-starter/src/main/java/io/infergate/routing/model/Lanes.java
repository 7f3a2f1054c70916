package io.infergate.routing.model;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

import io.infergate.routing.actuate.InferenceReport;

/**
 * A model's lanes: a request whose estimated tokens (prompt estimate plus {@code max_tokens}) are at most a lane's
 * {@code max-tokens} takes that lane's pool; the first lane that fits wins, and a lane without {@code max-tokens}
 * takes any request.
 */
final class Lanes {

	private final ModelRoute[] routes;

	/** Each lane's bound; {@code null} for a lane that takes any request. */
	private final Integer[] maxTokens;

	private final LongAdder[] requests;

	Lanes(List<ModelRoute> routes, List<Integer> maxTokens) {
		this.routes = routes.toArray(new ModelRoute[0]);
		this.maxTokens = maxTokens.toArray(new Integer[0]);
		this.requests = new LongAdder[this.routes.length];
		for (int i = 0; i < this.requests.length; i++) {
			this.requests[i] = new LongAdder();
		}
	}

	/** The first lane that takes {@code tokens}, or {@code null} when every lane is bounded below them. */
	ModelRoute pick(long tokens) {
		for (int i = 0; i < routes.length; i++) {
			if (maxTokens[i] == null || tokens <= maxTokens[i]) {
				requests[i].increment();
				return routes[i];
			}
		}
		return null;
	}

	/** The largest request any lane takes, or {@link Long#MAX_VALUE} when a lane takes any. */
	long largestTaken() {
		long largest = 0;
		for (Integer bound : maxTokens) {
			if (bound == null) {
				return Long.MAX_VALUE;
			}
			largest = Math.max(largest, bound);
		}
		return largest;
	}

	List<ModelRoute> routes() {
		return List.of(routes);
	}

	List<InferenceReport.Lane> report() {
		List<InferenceReport.Lane> lanes = new ArrayList<>(routes.length);
		for (int i = 0; i < routes.length; i++) {
			ModelRoute route = routes[i];
			lanes.add(new InferenceReport.Lane(maxTokens[i], route.pool(), route.targetModel(), route.adapter(),
					requests[i].sum()));
		}
		return lanes;
	}
}
