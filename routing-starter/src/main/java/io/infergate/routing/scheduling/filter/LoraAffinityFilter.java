package io.infergate.routing.scheduling.filter;

import java.util.List;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointMetrics;
import io.infergate.routing.endpoint.EndpointSnapshot;
import io.infergate.routing.scheduling.EndpointFilter;
import io.infergate.routing.scheduling.PluginType;
import io.infergate.routing.scheduling.SchedulingCycle;

import org.springframework.stereotype.Component;

/**
 * {@code lora-affinity}: when the request names a LoRA adapter, keeps the endpoints that are running that adapter
 * or have a free adapter slot ({@link EndpointMetrics#hasFreeAdapterSlot()}), so the request neither waits for an
 * adapter swap nor evicts one. Endpoints without a snapshot are dropped.
 * <p>
 * Keeps every candidate when the request has no adapter, and when no candidate qualifies (the adapter must then be
 * loaded somewhere; the {@code lora-affinity} scorer still ranks where).
 */
public final class LoraAffinityFilter extends RetainingFilter {

	public static final String NAME = "lora-affinity";

	private final String name;

	/** The predefined instance, {@code lora-affinity}. */
	public LoraAffinityFilter() {
		this(NAME);
	}

	public LoraAffinityFilter(String name) {
		super(true);
		this.name = name;
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	public List<Endpoint> filter(SchedulingCycle cycle, List<Endpoint> candidates) {
		if (!cycle.request().hasAdapter()) {
			return candidates;
		}
		return super.filter(cycle, candidates);
	}

	@Override
	boolean keeps(SchedulingCycle cycle, Endpoint endpoint) {
		EndpointSnapshot snapshot = endpoint.snapshot();
		if (snapshot == null) {
			return false;
		}
		EndpointMetrics metrics = snapshot.metrics();
		return metrics.runningAdapters().contains(cycle.request().adapter()) || metrics.hasFreeAdapterSlot();
	}

	/** The {@code lora-affinity} type. */
	@Component
	public static final class Type extends PluginType.WithoutParameters<EndpointFilter> {

		public Type() {
			super(EndpointFilter.class, NAME, LoraAffinityFilter::new);
		}
	}
}
