package io.infergate.routing.scheduling.picker;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.EndpointPicker;
import io.infergate.routing.scheduling.PluginType;
import io.infergate.routing.scheduling.SchedulingCycle;

import org.springframework.stereotype.Component;

/**
 * {@code round-robin}: ignores the totals and rotates over the candidates, with one counter per pool
 * ({@code cycle.request().pool()}): the k-th decision of a pool picks candidate {@code k mod n}. The counter is
 * atomic, so concurrent decisions of one pool take distinct turns. When filters change the candidate list the
 * rotation goes on over the new list. No parameters.
 */
public final class RoundRobinPicker implements EndpointPicker {

	public static final String NAME = "round-robin";

	private final String name;

	/** The predefined instance, named after the type. */
	public RoundRobinPicker() {
		this(NAME);
	}

	public RoundRobinPicker(String name) {
		this.name = name;
	}

	private final ConcurrentMap<String, AtomicInteger> turns = new ConcurrentHashMap<>();

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
		String pool = cycle.request().pool();
		String key = pool == null ? "" : pool;
		AtomicInteger turn = turns.get(key);
		if (turn == null) {
			turn = turns.computeIfAbsent(key, (newPool) -> new AtomicInteger());
		}
		return Math.floorMod(turn.getAndIncrement(), candidates.size());
	}

	/** The {@code round-robin} type. */
	@Component
	public static final class Type extends PluginType.WithoutParameters<EndpointPicker> {

		public Type() {
			super(EndpointPicker.class, NAME, RoundRobinPicker::new);
		}
	}
}
