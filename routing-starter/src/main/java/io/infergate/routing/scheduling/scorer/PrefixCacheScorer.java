package io.infergate.routing.scheduling.scorer;

import java.util.List;

import jakarta.validation.constraints.Positive;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.prefix.PrefixHashes;
import io.infergate.routing.prefix.PrefixIndex;
import io.infergate.routing.prefix.PrefixIndexConfiguration;
import io.infergate.routing.scheduling.DispatchListener;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.PluginParameterException;
import io.infergate.routing.scheduling.PluginType;
import io.infergate.routing.scheduling.SchedulingCycle;

import org.springframework.context.annotation.Import;
import org.springframework.stereotype.Component;

/**
 * {@code prefix-cache}: prefers the endpoint that already holds the longest leading part of the prompt, as the
 * {@link PrefixIndex} remembers from the gateway's own dispatches (GIE/llm-d prefix scorer).
 * <p>
 * {@code score = matched / total}, where total is the request's full blocks (at most {@code max-blocks}) and matched
 * the blocks the endpoint holds counted consecutively from block 0 up to the first it lacks (at most
 * {@code max-blocks} too). A request without a full
 * block scores 0 everywhere (neutral). The raw score in decision records is this ratio; the matched counts are in the
 * cycle ({@link PrefixIndex#matchedBlocks(SchedulingCycle, List)}).
 * <p>
 * Each dispatch is recorded in the index (idempotent per cycle, shared with other index readers), whichever instance
 * scores. The index's own parameters are {@code infergate.scheduling.prefix.*}. Parameter: {@code max-blocks} (1 up
 * to the index's {@code max-blocks}, default the index's 256), the leading blocks this instance compares: a small
 * value scores affinity for a shared system prompt alone, so the prompt's tail no longer tells endpoints apart.
 */
public final class PrefixCacheScorer implements EndpointScorer, DispatchListener {

	public static final String NAME = "prefix-cache";

	private final String name;

	private final PrefixIndex index;

	private final int maxBlocks;

	/** The predefined instance, {@code prefix-cache}: every block the index hashes. */
	public PrefixCacheScorer(PrefixIndex index) {
		this(NAME, index, new Parameters(null));
	}

	public PrefixCacheScorer(String name, PrefixIndex index, Parameters parameters) {
		int indexMaxBlocks = index.properties().maxBlocks();
		if (parameters.maxBlocks() != null && parameters.maxBlocks() > indexMaxBlocks) {
			throw new PluginParameterException("max-blocks", "must be at most the index's "
					+ "infergate.scheduling.prefix.max-blocks (" + indexMaxBlocks + "), got " + parameters.maxBlocks());
		}
		this.name = name;
		this.index = index;
		this.maxBlocks = (parameters.maxBlocks() == null) ? indexMaxBlocks : parameters.maxBlocks();
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	public void score(SchedulingCycle cycle, List<Endpoint> candidates, double[] scores) {
		PrefixHashes hashes = index.hashes(cycle);
		int total = Math.min(hashes.blockCount(), maxBlocks);
		if (total == 0) {
			return;
		}
		int[] matched = index.matchedBlocks(cycle, candidates);
		for (int i = 0, n = candidates.size(); i < n; i++) {
			scores[i] = (double) Math.min(matched[i], total) / total;
		}
	}

	@Override
	public void onDispatch(SchedulingCycle cycle, Endpoint chosen) {
		index.onDispatch(cycle, chosen);
	}

	/**
	 * Parameters of {@code prefix-cache}.
	 *
	 * @param maxBlocks the leading blocks compared, at most the index's; null for the index's {@code max-blocks}
	 */
	public record Parameters(@Positive Integer maxBlocks) {
	}

	/** The {@code prefix-cache} type; its instances share the one {@link PrefixIndex}. */
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
			return new PrefixCacheScorer(name, index, parameters);
		}
	}
}
