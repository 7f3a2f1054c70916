package io.infergate.routing.scheduling;

import java.util.ArrayList;
import java.util.List;

import io.infergate.routing.endpoint.Endpoint;

/**
 * An endpoint that a filter removed from the candidates of one decision.
 *
 * @param endpoint the endpoint removed
 * @param filter the name of the filter that removed it
 */
public record FilterRemoval(Endpoint endpoint, String filter) {

	/**
	 * Adds to {@code removals} the endpoints of {@code before} that {@code filter} left out of {@code after}, and
	 * returns the list (a new one when {@code removals} is {@code null} and something was removed). A filter keeps
	 * its candidates in their order ({@link EndpointFilter#filter}), so one walk over both lists finds them; when
	 * it returned its input list nothing is walked.
	 */
	static List<FilterRemoval> collect(List<FilterRemoval> removals, EndpointFilter filter, List<Endpoint> before,
			List<Endpoint> after) {
		if (after == before || after.size() == before.size()) {
			return removals;
		}
		List<FilterRemoval> collected = (removals != null) ? removals : new ArrayList<>(before.size() - after.size());
		int kept = 0;
		for (Endpoint endpoint : before) {
			if (kept < after.size() && after.get(kept) == endpoint) {
				kept++;
			}
			else {
				collected.add(new FilterRemoval(endpoint, filter.name()));
			}
		}
		return collected;
	}
}
