package io.infergate.routing.scheduling.scorer;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.infergate.kvevents.AllBlocksCleared;
import io.infergate.kvevents.BlockRemoved;
import io.infergate.kvevents.BlockStored;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.prefix.EngineBlockIndex;
import io.infergate.routing.prefix.EngineBlockIndexProperties;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.tokenization.SimulatorBlockHasher;
import io.infergate.routing.tokenization.SimulatorPromptTokenizer;

import static io.infergate.routing.scheduling.Fixtures.POOL;
import static io.infergate.routing.scheduling.Fixtures.cycle;
import static io.infergate.routing.scheduling.Fixtures.endpoint;
import static io.infergate.routing.scheduling.Fixtures.score;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The formula on hand-made engine states. Blocks of 4 tokens; a completion prompt of 16 characters per block (the
 * simulator's tokenizer makes one token of 4 characters), so a 64-character prompt has exactly 4 full blocks.
 */
class PrecisePrefixScorerTests {

	private static final int BLOCK_SIZE = 4;

	private static final String PROMPT = "the system prompt that all of the group shares, then a question";

	private final EngineBlockIndex index = new EngineBlockIndex(new EngineBlockIndexProperties(3, 1000));

	private final EngineBlockIndex uncapped = new EngineBlockIndex(EngineBlockIndexProperties.defaults());

	private final PrecisePrefixScorer scorer = new PrecisePrefixScorer(uncapped, new SimulatorPromptTokenizer(),
			new SimulatorBlockHasher());

	private final Endpoint all = endpoint(1);

	private final Endpoint threeOfFour = endpoint(2);

	private final Endpoint gapAtTwo = endpoint(3);

	private final Endpoint none = endpoint(4);

	@Test
	void nameIsTheYamlKey() {
		assertThat(scorer.name()).isEqualTo(PrecisePrefixScorer.NAME).isEqualTo("precise-prefix");
	}

	@Test
	void scoresTheLeadingBlocksTheEngineReportsOverThePromptsBlocks() {
		long[] blocks = hashes(PROMPT, null);
		assertThat(blocks).hasSize(4);
		store(uncapped, all, blocks, 0, 4);
		store(uncapped, threeOfFour, blocks, 0, 3);
		store(uncapped, gapAtTwo, blocks, 0, 2);
		store(uncapped, gapAtTwo, blocks, 3, 4);
		store(uncapped, none, hashes("x".repeat(64), null), 0, 4);

		double[] scores = score(scorer, cycle(request(PROMPT, null)), List.of(all, threeOfFour, gapAtTwo, none));

		// 4/4, 3/4, 2/4 (block 3 held but block 2 is not: the run stops), 0/4
		assertThat(scores).containsExactly(1.0, 0.75, 0.5, 0.0);
	}

	@Test
	void removedAndClearedBlocksNoLongerCount() {
		long[] blocks = hashes(PROMPT, null);
		store(uncapped, all, blocks, 0, 4);
		store(uncapped, threeOfFour, blocks, 0, 4);

		uncapped.apply(all.id(), new BlockRemoved(new long[] { blocks[1] }, "GPU", null));
		uncapped.apply(threeOfFour.id(), AllBlocksCleared.INSTANCE);

		// blocks 0 of 4 still held: 1/4; nothing: 0
		assertThat(score(scorer, cycle(request(PROMPT, null)), List.of(all, threeOfFour))).containsExactly(0.25, 0.0);
	}

	@Test
	void aTrailingPartialBlockIsNotPartOfTheTotal() {
		long[] blocks = hashes(PROMPT, null);
		store(uncapped, all, blocks, 0, 2);

		double[] scores = score(scorer, cycle(request(PROMPT + "0123456789", null)), List.of(all));

		// 74 characters: 19 tokens, 4 full blocks; 2 held
		assertThat(scores).containsExactly(0.5);
	}

	@Test
	void maxBlocksCapsTheTotal() {
		PrecisePrefixScorer capped = new PrecisePrefixScorer(index, new SimulatorPromptTokenizer(),
				new SimulatorBlockHasher());
		long[] blocks = hashes(PROMPT, null);
		store(index, all, blocks, 0, 2);

		// max-blocks 3: only blocks 0..2 count, 2 held
		assertThat(score(capped, cycle(request(PROMPT, null)), List.of(all))[0]).isEqualTo(2.0 / 3);
	}

	@Test
	void anAdaptersBlocksDoNotMatchTheBaseModel() {
		store(uncapped, all, hashes(PROMPT, "sql"), 0, 4);

		assertThat(score(scorer, cycle(request(PROMPT, null)), List.of(all))).containsExactly(0.0);
		assertThat(score(scorer, cycle(request(PROMPT, "sql")), List.of(all))).containsExactly(1.0);
	}

	@Test
	void noEngineReportedYetScoresZeroEverywhere() {
		assertThat(score(scorer, cycle(request(PROMPT, null)), List.of(all, none))).containsExactly(0.0, 0.0);
	}

	@Test
	void anEngineWithAnotherBlockSizeScoresZero() {
		store(uncapped, all, hashes(PROMPT, null), 0, 4);
		uncapped.apply(threeOfFour.id(), new BlockStored(new long[] { 99 }, null, new int[16], 16, null, "GPU", null,
				null));

		assertThat(score(scorer, cycle(request(PROMPT, null)), List.of(all, threeOfFour))).containsExactly(1.0, 0.0);
	}

	@Test
	void aPromptWithoutAFullBlockScoresZeroEverywhere() {
		store(uncapped, all, hashes(PROMPT, null), 0, 4);

		assertThat(score(scorer, cycle(request("short", null)), List.of(all))).containsExactly(0.0);
	}

	private static InferenceRequest request(String prompt, String adapter) {
		return new InferenceRequest("m", POOL, "m", adapter, prompt, InferenceRequest.estimateTokens(prompt.length()),
				16, false, null, 0);
	}

	private static long[] hashes(String prompt, String adapter) {
		int[] tokens = new int[64];
		int count = new SimulatorPromptTokenizer().tokenize(request(prompt, adapter), tokens);
		long[] hashes = new long[16];
		int blocks = new SimulatorBlockHasher().hashFullBlocks(tokens, count, BLOCK_SIZE, adapter, hashes);
		return Arrays.copyOf(hashes, blocks);
	}

	private static void store(EngineBlockIndex index, Endpoint endpoint, long[] hashes, int from, int to) {
		index.apply(endpoint.id(), new BlockStored(Arrays.copyOfRange(hashes, from, to),
				(from > 0) ? hashes[from - 1] : null, new int[(to - from) * BLOCK_SIZE], BLOCK_SIZE, null, "GPU", null,
				null));
	}
}
