package io.infergate.routing.scheduling.filter;

import java.util.ArrayList;
import java.util.List;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.EndpointFilter;
import io.infergate.routing.scheduling.SchedulingCycle;

/**
 * A filter that keeps the candidates passing one test. It returns the input list itself when every candidate
 * passes, and allocates the narrowed list only when one is dropped.
 */
abstract class RetainingFilter implements EndpointFilter {

	private final boolean keepAllWhenNoneRemain;

	/**
	 * @param keepAllWhenNoneRemain whether to return every candidate instead of an empty list when none passes
	 */
	RetainingFilter(boolean keepAllWhenNoneRemain) {
		this.keepAllWhenNoneRemain = keepAllWhenNoneRemain;
	}

	/** Whether {@code endpoint} passes. */
	abstract boolean keeps(SchedulingCycle cycle, Endpoint endpoint);

	@Override
	public List<Endpoint> filter(SchedulingCycle cycle, List<Endpoint> candidates) {
		int n = candidates.size();
		int firstDropped = 0;
		while (firstDropped < n && keeps(cycle, candidates.get(firstDropped))) {
			firstDropped++;
		}
		if (firstDropped == n) {
			return candidates;
		}
		List<Endpoint> kept = new ArrayList<>(n - 1);
		for (int i = 0; i < firstDropped; i++) {
			kept.add(candidates.get(i));
		}
		for (int i = firstDropped + 1; i < n; i++) {
			Endpoint endpoint = candidates.get(i);
			if (keeps(cycle, endpoint)) {
				kept.add(endpoint);
			}
		}
		if (kept.isEmpty() && keepAllWhenNoneRemain) {
			return candidates;
		}
		return kept;
	}
}
