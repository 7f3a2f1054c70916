package io.infergate.routing.scheduling.scorer;

import java.util.List;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Positive;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.prefix.EngineBlockIndex;
import io.infergate.routing.prefix.EngineBlockIndexConfiguration;
import io.infergate.routing.prefix.TokenBlockKeys;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.PluginType;
import io.infergate.routing.scheduling.SchedulingCycle;

import org.springframework.context.annotation.Import;
import org.springframework.stereotype.Component;

/**
 * {@code precise-prefix}: prefers the endpoint whose engine reports, in its own KV-cache events, the longest leading
 * part of the prompt as cached ({@link EngineBlockIndex}).
 * <p>
 * {@code score = matched / total}, where total is the prompt's full blocks (at most {@code max-blocks}): the
 * prompt's token ids from its model's tokenizer ({@link InferenceRequest#promptTokenIds()}, chat template applied),
 * cut into blocks of the size the candidates' engines report and keyed as the index keys the blocks engines store
 * ({@link TokenBlockKeys}, the adapter's own chain under LoRA); matched is the blocks the endpoint's engine holds,
 * counted from block 0 up to the first it lacks. Scores 0 for every candidate when the request has no token ids (its
 * model has no tokenizer: a pool whose profile uses this scorer must have one, checked at startup), when no
 * candidate's engine has reported a block yet, or when the prompt has no full block (neutral: the other scorers
 * decide); 0 for a candidate whose engine reports a different block size than the first candidate that reported
 * one, or whose event stream is down (the subscription empties it: see {@code kvevents/README.md}).
 * <p>
 * Parameter: {@code max-blocks} (1..65,536), the prompt's leading blocks compared; default the index's
 * {@code infergate.scheduling.engine-blocks.max-blocks} (256). The index's own: {@code capacity-per-endpoint}
 * (65,536). Per decision it keys the prompt's first {@code max-blocks} blocks into a per-thread buffer; the
 * allocations are the match arrays (a few words per candidate).
 */
public final class PrecisePrefixScorer implements EndpointScorer {

	public static final String NAME = "precise-prefix";

	private final String name;

	private final EngineBlockIndex index;

	private final int maxBlocks;

	private final ThreadLocal<long[]> keys;

	/** The predefined instance, {@code precise-prefix}, comparing the index's {@code max-blocks}. */
	public PrecisePrefixScorer(EngineBlockIndex index) {
		this(NAME, index, new Parameters(null));
	}

	public PrecisePrefixScorer(String name, EngineBlockIndex index, Parameters parameters) {
		this.name = name;
		this.index = index;
		this.maxBlocks = (parameters.maxBlocks() == null) ? index.properties().maxBlocks() : parameters.maxBlocks();
		this.keys = ThreadLocal.withInitial(() -> new long[this.maxBlocks]);
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	public void score(SchedulingCycle cycle, List<Endpoint> candidates, double[] scores) {
		int[] tokens = cycle.request().promptTokenIds();
		if (tokens == null) {
			return;
		}
		int n = candidates.size();
		int blockSize = 0;
		for (int i = 0; i < n && blockSize == 0; i++) {
			blockSize = index.blockSize(candidates.get(i).id());
		}
		if (blockSize == 0) {
			return;
		}
		long[] buffer = keys.get();
		int blocks = TokenBlockKeys.keys(tokens, tokens.length, blockSize, cycle.request().adapter(),
				cycle.request().cacheSalt(), buffer);
		if (blocks == 0) {
			return;
		}
		int[] matched = index.matchedBlocks(buffer, blocks, candidates);
		for (int i = 0; i < n; i++) {
			if (index.blockSize(candidates.get(i).id()) == blockSize) {
				scores[i] = (double) matched[i] / blocks;
			}
		}
	}

	/**
	 * Parameters of {@code precise-prefix}.
	 *
	 * @param maxBlocks the prompt's leading engine blocks compared; null for the index's {@code max-blocks}
	 */
	public record Parameters(@Positive @Max(65_536) Integer maxBlocks) {
	}

	/** The {@code precise-prefix} type; its instances share the one {@link EngineBlockIndex}. */
	@Component
	@Import(EngineBlockIndexConfiguration.class)
	public static final class Type extends PluginType<EndpointScorer, Parameters> {

		private final EngineBlockIndex index;

		public Type(EngineBlockIndex index) {
			super(EndpointScorer.class, NAME, Parameters.class);
			this.index = index;
		}

		@Override
		public EndpointScorer create(String name, Parameters parameters) {
			return new PrecisePrefixScorer(name, index, parameters);
		}
	}
}
