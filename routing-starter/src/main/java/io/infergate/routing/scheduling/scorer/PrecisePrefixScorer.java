package io.infergate.routing.scheduling.scorer;

import java.util.List;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Positive;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.prefix.EngineBlockIndex;
import io.infergate.routing.prefix.EngineBlockIndexConfiguration;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.PluginType;
import io.infergate.routing.scheduling.SchedulingCycle;
import io.infergate.routing.tokenization.EngineBlockHasher;
import io.infergate.routing.tokenization.PromptTokenizer;
import io.infergate.routing.tokenization.SimulatorBlockHasher;
import io.infergate.routing.tokenization.SimulatorPromptTokenizer;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Import;
import org.springframework.stereotype.Component;

/**
 * {@code precise-prefix}: prefers the endpoint whose engine reports, in its own KV-cache events, the longest leading
 * part of the prompt as cached ({@link EngineBlockIndex}).
 * <p>
 * {@code score = matched / total}, where total is the prompt's full engine blocks (at most {@code max-blocks}): the
 * prompt tokenized as the engine does ({@link PromptTokenizer}) and cut into blocks of the size the candidates'
 * engines report, hashed as the engine hashes them ({@link EngineBlockHasher}); matched is the blocks the endpoint's
 * engine holds, counted from block 0 up to the first it lacks. Scores 0 for every candidate when no candidate's engine
 * has reported a block yet or the prompt has no full block (neutral: the other scorers decide); 0 for a candidate
 * whose engine reports a different block size than the first candidate that reported one, or whose event stream is
 * down (the subscription empties it: see {@code kvevents/README.md}).
 * <p>
 * Parameter: {@code max-blocks} (1..65,536), the prompt's leading blocks compared; default the index's
 * {@code infergate.scheduling.engine-blocks.max-blocks} (256). The index's own: {@code capacity-per-endpoint}
 * (65,536). The tokenizer and hasher are the simulator's unless the context has beans of
 * those types. Per decision it tokenizes and hashes the prompt's first {@code max-blocks} blocks into per-thread
 * buffers; the allocations are the match arrays (a few words per candidate).
 */
public final class PrecisePrefixScorer implements EndpointScorer {

	public static final String NAME = "precise-prefix";

	private final String name;

	private final EngineBlockIndex index;

	private final PromptTokenizer tokenizer;

	private final EngineBlockHasher hasher;

	private final int maxBlocks;

	private final ThreadLocal<Buffers> buffers = ThreadLocal.withInitial(Buffers::new);

	/** The predefined instance, {@code precise-prefix}, comparing the index's {@code max-blocks}. */
	public PrecisePrefixScorer(EngineBlockIndex index, PromptTokenizer tokenizer, EngineBlockHasher hasher) {
		this(NAME, index, tokenizer, hasher, new Parameters(null));
	}

	public PrecisePrefixScorer(String name, EngineBlockIndex index, PromptTokenizer tokenizer,
			EngineBlockHasher hasher, Parameters parameters) {
		this.name = name;
		this.index = index;
		this.tokenizer = tokenizer;
		this.hasher = hasher;
		this.maxBlocks = (parameters.maxBlocks() == null) ? index.properties().maxBlocks() : parameters.maxBlocks();
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	public void score(SchedulingCycle cycle, List<Endpoint> candidates, double[] scores) {
		int n = candidates.size();
		int blockSize = 0;
		for (int i = 0; i < n && blockSize == 0; i++) {
			blockSize = index.blockSize(candidates.get(i).id());
		}
		if (blockSize == 0) {
			return;
		}
		Buffers buffer = buffers.get().ensure(maxBlocks, blockSize);
		int tokens = tokenizer.tokenize(cycle.request(), buffer.tokens);
		int blocks = hasher.hashFullBlocks(buffer.tokens, tokens, blockSize, cycle.request().adapter(),
				buffer.hashes);
		if (blocks == 0) {
			return;
		}
		int[] matched = index.matchedBlocks(buffer.hashes, blocks, candidates);
		for (int i = 0; i < n; i++) {
			if (index.blockSize(candidates.get(i).id()) == blockSize) {
				scores[i] = (double) matched[i] / blocks;
			}
		}
	}

	/** One thread's token and hash buffers, sized for {@code maxBlocks} blocks of the largest block size seen. */
	private static final class Buffers {

		int[] tokens = new int[0];

		long[] hashes = new long[0];

		Buffers ensure(int maxBlocks, int blockSize) {
			int tokenCount = maxBlocks * blockSize;
			if (tokens.length != tokenCount) {
				tokens = new int[tokenCount];
			}
			if (hashes.length != maxBlocks) {
				hashes = new long[maxBlocks];
			}
			return this;
		}
	}

	/**
	 * Parameters of {@code precise-prefix}.
	 *
	 * @param maxBlocks the prompt's leading engine blocks compared; null for the index's {@code max-blocks}
	 */
	public record Parameters(@Positive @Max(65_536) Integer maxBlocks) {
	}

	/**
	 * The {@code precise-prefix} type; its instances share the one {@link EngineBlockIndex}, and use the context's
	 * tokenizer and hasher, else the simulator's.
	 */
	@Component
	@Import(EngineBlockIndexConfiguration.class)
	public static final class Type extends PluginType<EndpointScorer, Parameters> {

		private final EngineBlockIndex index;

		private final PromptTokenizer tokenizer;

		private final EngineBlockHasher hasher;

		public Type(EngineBlockIndex index, ObjectProvider<PromptTokenizer> tokenizer,
				ObjectProvider<EngineBlockHasher> hasher) {
			super(EndpointScorer.class, NAME, Parameters.class);
			this.index = index;
			this.tokenizer = tokenizer.getIfAvailable(SimulatorPromptTokenizer::new);
			this.hasher = hasher.getIfAvailable(SimulatorBlockHasher::new);
		}

		@Override
		public EndpointScorer create(String name, Parameters parameters) {
			return new PrecisePrefixScorer(name, index, tokenizer, hasher, parameters);
		}
	}
}
