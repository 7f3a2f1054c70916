package io.infergate.routing.scheduling.scorer;

import java.util.List;

import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.PositiveOrZero;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.prefix.PrefixIndex;
import io.infergate.routing.prefix.PrefixIndexConfiguration;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.scheduling.DispatchListener;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.PluginType;
import io.infergate.routing.scheduling.SchedulingCycle;

import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.context.annotation.Import;
import org.springframework.stereotype.Component;

/**
 * {@code estimated-ttft}: weighs the prefill a cached prefix saves against the queueing a busier endpoint adds, in one
 * unit, microseconds of time to first token, and prefers the endpoint where the estimate is lowest.
 * <pre>
 * uncached_i = max(0, promptTokens − matchedBlocks_i · blockSizeChars / 4)
 * ttft_i     = base + prefill · uncached_i + perRequest · load_i
 * score_i    = min_j ttft_j / ttft_i
 * </pre>
 * promptTokens is the request's estimate (characters / 4), matchedBlocks_i the {@code prefix-cache} match from the
 * {@link PrefixIndex}, load_i the endpoint's requests as the profile's load counts them ({@link SchedulingCycle#load}):
 * by default the gateway's own in-flight requests, fresh at every dispatch, unlike scraped queues. The lowest estimate scores 1 and twice it 0.5: a ratio, so the score says by how much an endpoint
 * is worse, and it stays meaningful when the scorer is weighed with others.
 * <p>
 * The cached endpoint wins while its extra in-flight requests cost less than the prefill it saves. A full hit on a
 * 2,048-token prefix saves 2,048 · 17.25 µs ≈ 35.3 ms: at the defaults that outweighs 35 extra in-flight requests
 * (35 ms) but not 36. A 256-token hit saves 4.4 ms, worth four. Where nothing is cached the prefill term is equal
 * everywhere and the scorer ranks exactly as {@code least-request}.
 * <p>
 * Parameters (of the predefined instance: {@code infergate.scheduling.plugins.estimated-ttft.*}):
 * <ul>
 * <li>{@code base-micros} (> 0, default 5753): the part of TTFT no routing choice changes, one engine step (β0 of the
 * Llama-3.1-8B/H100 vLLM step-time fit); it also keeps the ratio finite.</li>
 * <li>{@code prefill-micros-per-token} (≥ 0, default 17.25): prefill time per uncached prompt token (β1 of the same
 * fit).</li>
 * <li>{@code in-flight-request-micros} (≥ 0, default 1000): the TTFT price of each request already in flight on the
 * endpoint. An in-flight request mostly decodes; in the same fit it adds 6 µs to every step we share (about 1.5 ms
 * over a 256-token answer), and, averaged over its life, about 1 ms of prefill still ahead of ours for 2k-token
 * prompts, which suggests 3 ms; the routing-quality bench found 1 ms better in bursts, where 3 ms split prefix
 * groups too eagerly ({@code docs/routing-quality.md}). Raise it to spread load sooner, lower it to keep more cache
 * affinity.</li>
 * </ul>
 * Each dispatch is recorded in the index, like {@code prefix-cache} (idempotent per cycle).
 */
public final class EstimatedTtftScorer implements EndpointScorer, DispatchListener {

	public static final String NAME = "estimated-ttft";

	private final String name;

	private final PrefixIndex index;

	private final Parameters config;

	public EstimatedTtftScorer(String name, PrefixIndex index, Parameters config) {
		this.name = name;
		this.index = index;
		this.config = config;
	}

	@Override
	public String name() {
		return name;
	}

	public Parameters parameters() {
		return config;
	}

	@Override
	public void score(SchedulingCycle cycle, List<Endpoint> candidates, double[] scores) {
		int n = candidates.size();
		int[] matched = index.matchedBlocks(cycle, candidates);
		double promptTokens = cycle.request().estimatedPromptTokens();
		double tokensPerBlock = (double) index.blockSizeChars() / InferenceRequest.CHARS_PER_TOKEN;
		double min = Double.POSITIVE_INFINITY;
		for (int i = 0; i < n; i++) {
			double uncachedTokens = Math.max(0, promptTokens - matched[i] * tokensPerBlock);
			double ttft = config.baseMicros() + config.prefillMicrosPerToken() * uncachedTokens
					+ config.inFlightRequestMicros() * cycle.load(candidates.get(i));
			scores[i] = ttft;
			min = Math.min(min, ttft);
		}
		for (int i = 0; i < n; i++) {
			scores[i] = min / scores[i];
		}
	}

	@Override
	public void onDispatch(SchedulingCycle cycle, Endpoint chosen) {
		index.onDispatch(cycle, chosen);
	}

	/**
	 * Parameters of {@code estimated-ttft}.
	 *
	 * @param baseMicros TTFT common to every endpoint, µs; positive; default 5753
	 * @param prefillMicrosPerToken prefill time per uncached prompt token, µs; default 17.25
	 * @param inFlightRequestMicros TTFT added per request in flight on the endpoint, µs; default 1000
	 */
	public record Parameters(@DefaultValue("5753") @DecimalMin(value = "0", inclusive = false) double baseMicros,
			@DefaultValue("17.25") @PositiveOrZero double prefillMicrosPerToken,
			@DefaultValue("1000") @PositiveOrZero double inFlightRequestMicros) {

		public static Parameters defaults() {
			return new Parameters(5753, 17.25, 1000);
		}
	}

	/** The {@code estimated-ttft} type; its instances share the one {@link PrefixIndex}. */
	@Component
	@Import(PrefixIndexConfiguration.class)
	public static final class Type extends PluginType<EndpointScorer, Parameters> {

		private final PrefixIndex index;

		public Type(PrefixIndex index) {
			super(EndpointScorer.class, NAME, Parameters.class);
			this.index = index;
		}

		@Override
		public EndpointScorer create(String name, Parameters parameters) {
			return new EstimatedTtftScorer(name, index, parameters);
		}
	}
}
