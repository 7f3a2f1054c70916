package io.infergate.routing.scheduling.scorer;

import java.util.List;

import jakarta.validation.constraints.Positive;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.PluginType;
import io.infergate.routing.scheduling.SchedulingCycle;

import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.stereotype.Component;

/**
 * {@code least-outstanding-tokens}: prefers the endpoint to which the gateway has the fewest estimated tokens in
 * flight ({@link Endpoint#inFlightTokens()}: prompt estimate plus max tokens of every request not yet finished).
 * <p>
 * {@code score = (min + s) / (t + s)}, where t is the candidate's outstanding tokens, min the least among the
 * candidates, and s the smoothing ({@code smoothing-tokens}, default 1). The least loaded scores 1, one with twice
 * its load about 0.5, and equal loads score a neutral 1. A ratio rather than min-max: token counts are large and
 * estimated, and min-max would stretch a difference of a few tokens between busy endpoints to the full 0..1 range.
 * s keeps 0/0 away; raise it towards a typical request's tokens to soften the gap between an idle endpoint and a
 * busy one.
 * <p>
 * Parameters: {@code smoothing-tokens} (> 0, default 1); the predefined instance's at
 * {@code infergate.scheduling.plugins.least-outstanding-tokens.smoothing-tokens}. Unlike a {@code metric} scorer of
 * {@code in-flight-tokens}, which normalizes min-max, this is a ratio.
 */
public final class LeastOutstandingTokensScorer implements EndpointScorer {

	public static final String NAME = "least-outstanding-tokens";

	private final String name;

	private final double smoothingTokens;

	public LeastOutstandingTokensScorer(String name, Parameters parameters) {
		this.name = name;
		this.smoothingTokens = parameters.smoothingTokens();
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	public void score(SchedulingCycle cycle, List<Endpoint> candidates, double[] scores) {
		int n = candidates.size();
		double min = Double.POSITIVE_INFINITY;
		for (int i = 0; i < n; i++) {
			double tokens = Math.max(0, candidates.get(i).inFlightTokens());
			scores[i] = tokens;
			min = Math.min(min, tokens);
		}
		for (int i = 0; i < n; i++) {
			scores[i] = (min + smoothingTokens) / (scores[i] + smoothingTokens);
		}
	}

	/**
	 * Parameters of {@code least-outstanding-tokens}.
	 *
	 * @param smoothingTokens s in the formula, tokens; must be positive; default 1
	 */
	public record Parameters(@DefaultValue("1") @Positive long smoothingTokens) {

		public static Parameters defaults() {
			return new Parameters(1);
		}
	}

	/** The {@code least-outstanding-tokens} type. */
	@Component
	public static final class Type extends PluginType<EndpointScorer, Parameters> {

		public Type() {
			super(EndpointScorer.class, NAME, Parameters.class);
		}

		@Override
		public EndpointScorer create(String name, Parameters parameters) {
			return new LeastOutstandingTokensScorer(name, parameters);
		}
	}
}
