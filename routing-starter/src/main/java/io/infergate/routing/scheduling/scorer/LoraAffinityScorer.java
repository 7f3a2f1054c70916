package io.infergate.routing.scheduling.scorer;

import java.util.List;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointMetrics;
import io.infergate.routing.endpoint.EndpointSnapshot;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.PluginType;
import io.infergate.routing.scheduling.SchedulingCycle;

import org.springframework.stereotype.Component;

/**
 * {@code lora-affinity}: prefers the endpoint where the request's LoRA adapter is cheapest to serve.
 * <p>
 * The checks run in this order and the first that applies gives the score, so the highest applicable score wins:
 * <ol>
 * <li>the adapter is running on the endpoint: {@value #RUNNING};</li>
 * <li>the endpoint has a free adapter slot ({@link EndpointMetrics#hasFreeAdapterSlot()}), so the adapter loads
 * without evicting another: {@value #FREE_SLOT};</li>
 * <li>the adapter is waiting on the endpoint (loaded or queued to load, but no slot to spare):
 * {@value #WAITING};</li>
 * <li>otherwise, and for a candidate without a snapshot: 0.</li>
 * </ol>
 * When the request has no adapter every candidate scores 1.0, so the scorer is neutral. These are the llm-d
 * LoRA-affinity scores; no parameters.
 */
public final class LoraAffinityScorer implements EndpointScorer {

	public static final String NAME = "lora-affinity";

	public static final double RUNNING = 1.0;

	public static final double FREE_SLOT = 0.8;

	public static final double WAITING = 0.6;

	private final String name;

	/** The predefined instance, {@code lora-affinity}. */
	public LoraAffinityScorer() {
		this(NAME);
	}

	public LoraAffinityScorer(String name) {
		this.name = name;
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	public void score(SchedulingCycle cycle, List<Endpoint> candidates, double[] scores) {
		int n = candidates.size();
		if (!cycle.request().hasAdapter()) {
			for (int i = 0; i < n; i++) {
				scores[i] = 1.0;
			}
			return;
		}
		String adapter = cycle.request().adapter();
		for (int i = 0; i < n; i++) {
			EndpointSnapshot snapshot = candidates.get(i).snapshot();
			scores[i] = snapshot == null ? 0 : score(snapshot.metrics(), adapter);
		}
	}

	private static double score(EndpointMetrics metrics, String adapter) {
		if (metrics.runningAdapters().contains(adapter)) {
			return RUNNING;
		}
		if (metrics.hasFreeAdapterSlot()) {
			return FREE_SLOT;
		}
		if (metrics.waitingAdapters().contains(adapter)) {
			return WAITING;
		}
		return 0;
	}

	/** The {@code lora-affinity} scorer type. */
	@Component
	public static final class Type extends PluginType.WithoutParameters<EndpointScorer> {

		public Type() {
			super(EndpointScorer.class, NAME, LoraAffinityScorer::new);
		}
	}
}
