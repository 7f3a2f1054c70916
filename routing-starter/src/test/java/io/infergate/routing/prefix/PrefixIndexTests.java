package io.infergate.routing.prefix;

import java.util.ArrayList;
import java.util.List;

import static java.util.Map.entry;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.scheduling.SchedulingCycle;

import static io.infergate.routing.prefix.PrefixFixtures.MODEL;
import static io.infergate.routing.prefix.PrefixFixtures.diverging;
import static io.infergate.routing.prefix.PrefixFixtures.prompt;
import static io.infergate.routing.prefix.PrefixFixtures.request;
import static io.infergate.routing.scheduling.Fixtures.cycle;
import static io.infergate.routing.scheduling.Fixtures.endpoint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class PrefixIndexTests {

	private final PrefixIndex index = new PrefixIndex(PrefixIndexProperties.defaults());

	private final Endpoint first = endpoint(8001);

	private final Endpoint second = endpoint(8002);

	@Test
	void endpointHoldsEveryBlockOfAPromptDispatchedToIt() {
		dispatch(request(prompt("p", 8)), first);

		assertThat(match(request(prompt("p", 8)), first, second)).containsExactly(8, 0);
	}

	@ParameterizedTest
	@ValueSource(ints = { 0, 1, 5, 9 })
	void aPromptDifferingAtBlockKMatchesExactlyKBlocks(int k) {
		dispatch(request(prompt("p", 10)), first);

		assertThat(match(request(diverging("p", k, 10)), first)).containsExactly(k);
	}

	@Test
	void matchesEveryCandidateAtItsOwnLength() {
		int[] lengths = { 10, 0, 1, 3, 5, 8, 10, 3, 7, 9 };
		List<Endpoint> candidates = new ArrayList<>();
		for (int i = 0; i < lengths.length; i++) {
			Endpoint endpoint = endpoint(8100 + i);
			candidates.add(endpoint);
			if (lengths[i] > 0) {
				dispatch(request(diverging("p", lengths[i], 10)), endpoint);
			}
		}
		candidates.add(endpoint(8200)); // never dispatched to

		assertThat(index.matchedBlocks(cycle(request(prompt("p", 10))), candidates))
			.containsExactly(10, 0, 1, 3, 5, 8, 10, 3, 7, 9, 0);
	}

	@Test
	void aLongerPromptMatchesTheBlocksItShares() {
		dispatch(request(prompt("p", 4)), first);

		assertThat(match(request(prompt("p", 12)), first)).containsExactly(4);
	}

	@Test
	void sameTextWithAnotherAdapterDoesNotMatch() {
		dispatch(request(MODEL, "support-lora", prompt("p", 4), null), first);

		assertThat(match(request(MODEL, "billing-lora", prompt("p", 4), null), first)).containsExactly(0);
		assertThat(match(request(MODEL, null, prompt("p", 4), null), first)).containsExactly(0);
		assertThat(match(request(MODEL, "support-lora", prompt("p", 4), null), first)).containsExactly(4);
	}

	@Test
	void sameTextForAnotherModelDoesNotMatch() {
		dispatch(request(MODEL, null, prompt("p", 4), null), first);

		assertThat(match(request("mistral-7b", null, prompt("p", 4), null), first)).containsExactly(0);
	}

	@Test
	void aTrailingPartialBlockIsIgnored() {
		dispatch(request(prompt("p", 2) + "tail".repeat(10)), first);

		assertThat(index.stats().blocksPerEndpoint()).containsEntry("10.0.0.1:8001", 2);
		assertThat(match(request(prompt("p", 2) + "other tail"), first)).containsExactly(2);
	}

	@Test
	void matchesAtMostMaxBlocks() {
		PrefixIndex fourBlocks = new PrefixIndex(new PrefixIndexProperties(64, 4, 100));
		SchedulingCycle dispatched = cycle(request(prompt("p", 10)));
		fourBlocks.onDispatch(dispatched, first);

		SchedulingCycle next = cycle(request(prompt("p", 10)));

		assertThat(fourBlocks.hashes(next).blockCount()).isEqualTo(4);
		assertThat(fourBlocks.matchedBlocks(next, List.of(first))).containsExactly(4);
		assertThat(fourBlocks.stats().blocksPerEndpoint()).containsEntry("10.0.0.1:8001", 4);
	}

	@Test
	void evictsTheLeastRecentlyUsedBlocksPastCapacity() {
		PrefixIndex small = new PrefixIndex(new PrefixIndexProperties(64, 256, 4));
		small.onDispatch(cycle(request(prompt("a", 2))), first);
		small.onDispatch(cycle(request(prompt("b", 2))), first);

		small.onDispatch(cycle(request(prompt("c", 2))), first);

		assertThat(small.matchedBlocks(cycle(request(prompt("a", 2))), List.of(first))).containsExactly(0);
		assertThat(small.matchedBlocks(cycle(request(prompt("b", 2))), List.of(first))).containsExactly(2);
		assertThat(small.matchedBlocks(cycle(request(prompt("c", 2))), List.of(first))).containsExactly(2);
		assertThat(small.stats().evictedBlocks()).isEqualTo(2);
		assertThat(small.stats().blocksPerEndpoint()).containsEntry("10.0.0.1:8001", 4);
	}

	@Test
	void aRepeatedDispatchRefreshesRecency() {
		PrefixIndex small = new PrefixIndex(new PrefixIndexProperties(64, 256, 4));
		small.onDispatch(cycle(request(prompt("a", 2))), first);
		small.onDispatch(cycle(request(prompt("b", 2))), first);
		small.onDispatch(cycle(request(prompt("a", 2))), first);

		small.onDispatch(cycle(request(prompt("c", 2))), first);

		assertThat(small.matchedBlocks(cycle(request(prompt("a", 2))), List.of(first))).containsExactly(2);
		assertThat(small.matchedBlocks(cycle(request(prompt("b", 2))), List.of(first))).containsExactly(0);
	}

	@Test
	void evictsTheLongestContinuationBeforeTheBlocksItExtends() {
		PrefixIndex small = new PrefixIndex(new PrefixIndexProperties(64, 256, 5));
		small.onDispatch(cycle(request(prompt("a", 4))), first);

		small.onDispatch(cycle(request(prompt("b", 3))), first);

		// a's blocks 3 and 2 go first, so a still matches from block 0
		assertThat(small.matchedBlocks(cycle(request(prompt("a", 4))), List.of(first))).containsExactly(2);
	}

	@Test
	void aPromptLongerThanCapacityKeepsItsLeadingBlocks() {
		PrefixIndex small = new PrefixIndex(new PrefixIndexProperties(64, 256, 3));

		small.onDispatch(cycle(request(prompt("a", 8))), first);

		assertThat(small.matchedBlocks(cycle(request(prompt("a", 8))), List.of(first))).containsExactly(3);
	}

	@Test
	void aRemovedEndpointIsPurged() {
		dispatch(request(prompt("p", 4)), first);
		dispatch(request(prompt("p", 4)), second);

		index.endpointRemoved(null, first);

		assertThat(match(request(prompt("p", 4)), first, second)).containsExactly(0, 4);
		assertThat(index.stats().blocksPerEndpoint()).containsOnlyKeys("10.0.0.1:8002");
		assertThat(index.stats().entries()).isEqualTo(4);
	}

	@Test
	void anEndpointAddedAfterAPurgeInheritsNothing() {
		dispatch(request(prompt("p", 4)), first);
		index.purge(first.id());
		Endpoint third = endpoint(8003);

		dispatch(request(prompt("q", 4)), third);

		assertThat(match(request(prompt("p", 4)), first, third)).containsExactly(0, 0);
		assertThat(index.stats().entries()).isEqualTo(4);
	}

	@Test
	void theNextDecisionOverTheSameCandidatesSeesAnEndpointThatJoinedOrLeft() {
		List<Endpoint> candidates = List.of(first, second);
		dispatch(request(prompt("p", 4)), first);
		assertThat(index.matchedBlocks(cycle(request(prompt("p", 4))), candidates)).containsExactly(4, 0);

		dispatch(request(prompt("p", 4)), second);
		assertThat(index.matchedBlocks(cycle(request(prompt("p", 4))), candidates)).containsExactly(4, 4);

		index.purge(first.id());
		dispatch(request(prompt("q", 4)), endpoint(8003)); // may take the purged slot
		assertThat(index.matchedBlocks(cycle(request(prompt("p", 4))), candidates)).containsExactly(0, 4);
		assertThat(index.matchedBlocks(cycle(request(prompt("q", 4))), candidates)).containsExactly(0, 0);
	}

	@Test
	void anEmptyCandidateListMatchesNothing() {
		dispatch(request(prompt("p", 4)), first);

		assertThat(index.matchedBlocks(index.hash(request(prompt("p", 4))), List.of())).isEmpty();
	}

	@Test
	void hashesEachRequestOncePerCycle() {
		SchedulingCycle cycle = cycle(request(prompt("p", 4)));

		assertThat(index.hashes(cycle)).isSameAs(index.hashes(cycle));
	}

	@Test
	void sharesTheMatchesOfOneCandidateListWithinACycle() {
		SchedulingCycle cycle = cycle(request(prompt("p", 4)));
		List<Endpoint> candidates = List.of(first, second);

		assertThat(index.matchedBlocks(cycle, candidates)).isSameAs(index.matchedBlocks(cycle, candidates));
	}

	@Test
	void recordsADispatchOncePerCycleWhateverTheNumberOfListeners() {
		SchedulingCycle cycle = cycle(request(prompt("p", 4)));

		index.onDispatch(cycle, first);
		index.onDispatch(cycle, first);

		assertThat(index.stats().dispatchedRequests()).isEqualTo(1);
		assertThat(index.stats().dispatchedBlocks()).isEqualTo(4);
	}

	@Test
	void tellsItsListenersOfEachDispatchItRecordsFromItsOwnDecisionsOnly() {
		List<String> heard = new ArrayList<>();
		index.addRecordedDispatchListener((pool, endpoint, hashes) -> heard.add(pool + " " + endpoint + " "
				+ hashes.blockCount()));
		SchedulingCycle cycle = cycle(request(prompt("p", 4)));

		index.onDispatch(cycle, first);
		index.onDispatch(cycle, first);
		index.record(index.hash(request(prompt("q", 2))), second.id());
		index.onDispatch(cycle(request("shorter than a block")), second);

		assertThat(heard).containsExactly("llama 10.0.0.1:8001 4");
	}

	@Test
	void reportsSizeBlocksPerEndpointMemoryAndPredictedHitRatio() {
		dispatch(request(prompt("p", 4)), first); // cold: 0 of 4 predicted
		dispatch(request(prompt("p", 4)), first); // 4 of 4
		dispatch(request(diverging("p", 2, 4)), second); // 0 of 4 on second

		PrefixIndexStats stats = index.stats();

		assertThat(stats.entries()).isEqualTo(6);
		assertThat(stats.blocksPerEndpoint()).containsExactly(entry("10.0.0.1:8001", 4),
				entry("10.0.0.1:8002", 4));
		assertThat(stats.totalBlocks()).isEqualTo(8);
		assertThat(stats.dispatchedRequests()).isEqualTo(3);
		assertThat(stats.dispatchedBlocks()).isEqualTo(12);
		assertThat(stats.predictedHitBlocks()).isEqualTo(4);
		assertThat(stats.predictedHitRatio()).isCloseTo(4.0 / 12, within(1e-12));
		assertThat(stats.approximateMemoryBytes()).isPositive();
		assertThat(stats.blockSizeChars()).isEqualTo(64);
		assertThat(stats.maxBlocks()).isEqualTo(256);
		assertThat(stats.lruCapacityPerEndpoint()).isEqualTo(31_250);
	}

	@Test
	void predictsFromTheMatchTheScorersSaw() {
		dispatch(request(prompt("p", 4)), first);
		SchedulingCycle cycle = cycle(request(diverging("p", 3, 4)));
		index.matchedBlocks(cycle, List.of(first, second));

		index.onDispatch(cycle, first);

		assertThat(index.stats().predictedHitBlocks()).isEqualTo(3);
	}

	@Test
	void aRequestWithoutAFullBlockCountsAsDispatchedButHoldsNothing() {
		dispatch(request("short"), first);

		assertThat(index.stats().dispatchedRequests()).isEqualTo(1);
		assertThat(index.stats().dispatchedBlocks()).isZero();
		assertThat(index.stats().blocksPerEndpoint()).isEmpty();
		assertThat(match(request("short"), first)).containsExactly(0);
	}

	@Test
	void memoryEstimateGrowsWithBlocksAndFallsAfterAPurge() {
		long empty = index.stats().approximateMemoryBytes();
		for (int i = 0; i < 50; i++) {
			dispatch(request(prompt("p" + i, 20)), first);
		}
		long filled = index.stats().approximateMemoryBytes();

		index.purge(first.id());

		assertThat(filled).isGreaterThan(empty + 1_000 * 8);
		assertThat(index.stats().approximateMemoryBytes()).isLessThan(filled);
	}

	private void dispatch(InferenceRequest request, Endpoint endpoint) {
		index.onDispatch(cycle(request), endpoint);
	}

	private int[] match(InferenceRequest request, Endpoint... candidates) {
		return index.matchedBlocks(cycle(request), List.of(candidates));
	}
}
