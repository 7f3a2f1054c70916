package io.infergate.routing.scheduling.scorer;

import java.util.List;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.prefix.PrefixHashes;
import io.infergate.routing.prefix.PrefixIndex;
import io.infergate.routing.prefix.PrefixIndexConfiguration;
import io.infergate.routing.scheduling.DispatchListener;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.SchedulingCycle;

import org.springframework.context.annotation.Import;
import org.springframework.stereotype.Component;

/**
 * {@code prefix-cache}: prefers the endpoint that already holds the longest leading part of the prompt, as the
 * {@link PrefixIndex} remembers from the gateway's own dispatches (GIE/llm-d prefix scorer).
 * <p>
 * {@code score = matched / total}, where total is the request's full blocks (at most {@code max-blocks}) and matched
 * the blocks the endpoint holds counted consecutively from block 0 up to the first it lacks. A request without a full
 * block scores 0 everywhere (neutral). The raw score in decision records is this ratio; the matched counts are in the
 * cycle ({@link PrefixIndex#matchedBlocks(SchedulingCycle, List)}).
 * <p>
 * Each dispatch is recorded in the index (idempotent per cycle, shared with other index readers). Parameters are the
 * index's: {@code infergate.scheduling.prefix.*}.
 */
@Component
@Import(PrefixIndexConfiguration.class)
public final class PrefixCacheScorer implements EndpointScorer, DispatchListener {

	public static final String NAME = "prefix-cache";

	private final PrefixIndex index;

	public PrefixCacheScorer(PrefixIndex index) {
		this.index = index;
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public void score(SchedulingCycle cycle, List<Endpoint> candidates, double[] scores) {
		PrefixHashes hashes = index.hashes(cycle);
		int total = hashes.blockCount();
		if (total == 0) {
			return;
		}
		int[] matched = index.matchedBlocks(cycle, candidates);
		for (int i = 0, n = candidates.size(); i < n; i++) {
			scores[i] = (double) matched[i] / total;
		}
	}

	@Override
	public void onDispatch(SchedulingCycle cycle, Endpoint chosen) {
		index.onDispatch(cycle, chosen);
	}
}
