package io.infergate.routing.scheduling.picker;

import java.util.ArrayList;
import java.util.List;

import io.infergate.routing.endpoint.Endpoint;

import static io.infergate.routing.scheduling.Fixtures.endpoint;

final class PickerFixtures {

	private PickerFixtures() {
	}

	/** {@code count} endpoints without snapshots; pickers only read the totals. */
	static List<Endpoint> endpoints(int count) {
		List<Endpoint> endpoints = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			endpoints.add(endpoint(8000 + i));
		}
		return endpoints;
	}
}
