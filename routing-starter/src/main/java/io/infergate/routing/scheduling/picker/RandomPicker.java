package io.infergate.routing.scheduling.picker;

import java.util.List;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.EndpointPicker;
import io.infergate.routing.scheduling.SchedulingCycle;

import org.springframework.stereotype.Component;

/**
 * {@code random}: ignores the totals and picks a candidate uniformly at random, from
 * {@link SchedulingCycle#random()}. The baseline every other policy should beat. No parameters.
 */
@Component
public final class RandomPicker implements EndpointPicker {

	public static final String NAME = "random";

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public boolean readsTotals() {
		return false;
	}

	@Override
	public int pick(SchedulingCycle cycle, List<Endpoint> candidates, double[] totals) {
		return cycle.random().nextInt(candidates.size());
	}
}
