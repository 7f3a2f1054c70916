package io.infergate.routing.scheduling.picker;

import java.util.List;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.EndpointPicker;
import io.infergate.routing.scheduling.PluginType;
import io.infergate.routing.scheduling.SchedulingCycle;

import org.springframework.stereotype.Component;

/**
 * {@code random}: ignores the totals and picks a candidate uniformly at random, from
 * {@link SchedulingCycle#random()}. The baseline every other policy should beat. No parameters.
 */
public final class RandomPicker implements EndpointPicker {

	public static final String NAME = "random";

	private final String name;

	/** The predefined instance, named after the type. */
	public RandomPicker() {
		this(NAME);
	}

	public RandomPicker(String name) {
		this.name = name;
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	public boolean readsTotals() {
		return false;
	}

	@Override
	public int pick(SchedulingCycle cycle, List<Endpoint> candidates, double[] totals) {
		return cycle.random().nextInt(candidates.size());
	}

	/** The {@code random} type. */
	@Component
	public static final class Type extends PluginType.WithoutParameters<EndpointPicker> {

		public Type() {
			super(EndpointPicker.class, NAME, RandomPicker::new);
		}
	}
}
