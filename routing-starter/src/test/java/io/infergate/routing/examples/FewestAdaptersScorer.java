package io.infergate.routing.examples;

import java.util.List;

import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.stereotype.Component;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointSnapshot;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.PluginParameterException;
import io.infergate.routing.scheduling.PluginType;
import io.infergate.routing.scheduling.SchedulingCycle;

/**
 * The example scorer of {@code docs/architecture.md}: prefers the endpoint with the fewest LoRA adapters running,
 * so new adapters load where they evict nothing. An endpoint running {@code crowded} adapters or more scores 0, one
 * running none 1, and one without a snapshot 0.
 */
public final class FewestAdaptersScorer implements EndpointScorer {

	private final String name;

	private final int crowded;

	FewestAdaptersScorer(String name, int crowded) {
		this.name = name;
		this.crowded = crowded;
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	public void score(SchedulingCycle cycle, List<Endpoint> candidates, double[] scores) {
		for (int i = 0; i < candidates.size(); i++) {
			EndpointSnapshot snapshot = candidates.get(i).snapshot();
			int running = (snapshot != null) ? snapshot.metrics().runningAdapters().size() : crowded;
			scores[i] = Math.max(0.0, 1.0 - (double) running / crowded);
		}
	}

	/**
	 * The scorer's parameters.
	 *
	 * @param crowded the number of running adapters that scores 0
	 */
	public record Parameters(@DefaultValue("4") int crowded) {
	}

	/** The {@code fewest-adapters} type: a bean, so a profile can name it. */
	@Component
	public static final class Type extends PluginType<EndpointScorer, Parameters> {

		public Type() {
			super(EndpointScorer.class, "fewest-adapters", Parameters.class);
		}

		@Override
		public EndpointScorer create(String name, Parameters parameters) {
			if (parameters.crowded() < 1) {
				throw new PluginParameterException("crowded", "must be at least 1, got " + parameters.crowded());
			}
			return new FewestAdaptersScorer(name, parameters.crowded());
		}
	}
}
