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
import io.infergate.routing.request.Settlement;

import static io.infergate.routing.scheduling.Fixtures.POOL;
import static io.infergate.routing.scheduling.Fixtures.cycle;
import static io.infergate.routing.scheduling.Fixtures.endpoint;
import static io.infergate.routing.scheduling.Fixtures.score;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The formula on hand-made engine states. Blocks of 4 tokens; the prompts are token ids (as the model's tokenizer
 * gives them), and each engine names its blocks by hashes of its own, unrelated to the gateway's keys.
 */
class PrecisePrefixScorerTests {

	private static final int BLOCK_SIZE = 4;

	/** 16 tokens: 4 full blocks. */
	private static final int[] PROMPT = { 101, 102, 103, 104, 201, 202, 203, 204, 301, 302, 303, 304, 401, 402, 403,
			404 };

	private final EngineBlockIndex index = new EngineBlockIndex(new EngineBlockIndexProperties(3, 1000));

	private final EngineBlockIndex uncapped = new EngineBlockIndex(EngineBlockIndexProperties.defaults());

	private final PrecisePrefixScorer scorer = new PrecisePrefixScorer(uncapped);

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
		store(uncapped, all, PROMPT, null, 1000, 4);
		store(uncapped, threeOfFour, PROMPT, null, 2000, 3);
		store(uncapped, gapAtTwo, PROMPT, null, 3000, 4);
		uncapped.apply(gapAtTwo.id(), new BlockRemoved(new long[] { 3002 }, "GPU", null));
		int[] other = PROMPT.clone();
		other[0] = 7;
		store(uncapped, none, other, null, 4000, 4);

		double[] scores = score(scorer, cycle(request(PROMPT, null)), List.of(all, threeOfFour, gapAtTwo, none));

		// 4/4, 3/4, 2/4 (block 3 held but block 2 is not: the run stops), 0/4 (its first token differs)
		assertThat(scores).containsExactly(1.0, 0.75, 0.5, 0.0);
	}

	@Test
	void enginesNamingTheSameBlocksByOtherHashesMatchAlike() {
		store(uncapped, all, PROMPT, null, 1000, 4);
		store(uncapped, threeOfFour, PROMPT, null, -77_000_000_000L, 4);

		assertThat(score(scorer, cycle(request(PROMPT, null)), List.of(all, threeOfFour))).containsExactly(1.0, 1.0);
	}

	@Test
	void aChainStoredInTwoEventsIsKeyedFromItsParent() {
		uncapped.apply(all.id(), stored(new long[] { 11, 12 }, null, Arrays.copyOfRange(PROMPT, 0, 8), null));
		uncapped.apply(all.id(), stored(new long[] { 13, 14 }, 12L, Arrays.copyOfRange(PROMPT, 8, 16), null));

		assertThat(score(scorer, cycle(request(PROMPT, null)), List.of(all))).containsExactly(1.0);
	}

	@Test
	void aChainWhoseParentWasNeverSeenIsLeftOut() {
		uncapped.apply(all.id(), stored(new long[] { 13, 14 }, 12L, Arrays.copyOfRange(PROMPT, 8, 16), null));
		uncapped.apply(threeOfFour.id(), stored(new long[] { 11 }, null, Arrays.copyOfRange(PROMPT, 0, 4), null));

		assertThat(uncapped.blocks(all.id())).isZero();
		assertThat(score(scorer, cycle(request(PROMPT, null)), List.of(all, threeOfFour))).containsExactly(0.0, 0.25);
	}

	@Test
	void removedAndClearedBlocksNoLongerCount() {
		store(uncapped, all, PROMPT, null, 1000, 4);
		store(uncapped, threeOfFour, PROMPT, null, 2000, 4);

		uncapped.apply(all.id(), new BlockRemoved(new long[] { 1001 }, "GPU", null));
		uncapped.apply(threeOfFour.id(), AllBlocksCleared.INSTANCE);

		// blocks 0 of 4 still held: 1/4; nothing: 0
		assertThat(score(scorer, cycle(request(PROMPT, null)), List.of(all, threeOfFour))).containsExactly(0.25, 0.0);
	}

	@Test
	void aTrailingPartialBlockIsNotPartOfTheTotal() {
		store(uncapped, all, PROMPT, null, 1000, 2);
		int[] longer = Arrays.copyOf(PROMPT, 19);

		// 19 tokens, 4 full blocks; 2 held
		assertThat(score(scorer, cycle(request(longer, null)), List.of(all))).containsExactly(0.5);
	}

	@Test
	void maxBlocksCapsTheTotal() {
		PrecisePrefixScorer capped = new PrecisePrefixScorer(index);
		store(index, all, PROMPT, null, 1000, 2);

		// max-blocks 3: only blocks 0..2 count, 2 held
		assertThat(score(capped, cycle(request(PROMPT, null)), List.of(all))[0]).isEqualTo(2.0 / 3);
	}

	@Test
	void anAdaptersBlocksDoNotMatchTheBaseModel() {
		store(uncapped, all, PROMPT, "sql", 1000, 4);

		assertThat(score(scorer, cycle(request(PROMPT, null)), List.of(all))).containsExactly(0.0);
		assertThat(score(scorer, cycle(request(PROMPT, "sql")), List.of(all))).containsExactly(1.0);
	}

	@Test
	void noEngineReportedYetScoresZeroEverywhere() {
		assertThat(score(scorer, cycle(request(PROMPT, null)), List.of(all, none))).containsExactly(0.0, 0.0);
	}

	@Test
	void aRequestWithoutTokenIdsScoresZeroEverywhere() {
		store(uncapped, all, PROMPT, null, 1000, 4);
		InferenceRequest estimated = new InferenceRequest("m", POOL, "m", null, "some prompt text", 4, 16, false, null,
				0);

		assertThat(score(scorer, cycle(estimated), List.of(all))).containsExactly(0.0);
	}

	@Test
	void anEngineWithAnotherBlockSizeScoresZero() {
		store(uncapped, all, PROMPT, null, 1000, 4);
		uncapped.apply(threeOfFour.id(), new BlockStored(new long[] { 99 }, null, Arrays.copyOf(PROMPT, 16), 16, null,
				"GPU", null, null));

		assertThat(score(scorer, cycle(request(PROMPT, null)), List.of(all, threeOfFour))).containsExactly(1.0, 0.0);
	}

	@Test
	void aPromptWithoutAFullBlockScoresZeroEverywhere() {
		store(uncapped, all, PROMPT, null, 1000, 4);

		assertThat(score(scorer, cycle(request(new int[] { 101, 102, 103 }, null)), List.of(all)))
			.containsExactly(0.0);
	}

	private static InferenceRequest request(int[] tokens, String adapter) {
		return new InferenceRequest("m", POOL, "m", adapter, "", tokens.length, 16, false, null, 0, new Settlement(),
				tokens, true);
	}

	/** The first {@code blocks} blocks of {@code tokens}, stored as one chain named {@code firstHash}, +1, +2… */
	private static void store(EngineBlockIndex index, Endpoint endpoint, int[] tokens, String adapter, long firstHash,
			int blocks) {
		long[] hashes = new long[blocks];
		for (int i = 0; i < blocks; i++) {
			hashes[i] = firstHash + i;
		}
		index.apply(endpoint.id(), stored(hashes, null, Arrays.copyOf(tokens, blocks * BLOCK_SIZE), adapter));
	}

	private static BlockStored stored(long[] hashes, Long parent, int[] tokens, String adapter) {
		return new BlockStored(hashes, parent, tokens, BLOCK_SIZE, null, "GPU", adapter, null);
	}
}
