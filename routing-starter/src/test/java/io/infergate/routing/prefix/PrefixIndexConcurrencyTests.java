package io.infergate.routing.prefix;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.scheduling.SchedulingCycle;

import static io.infergate.routing.prefix.PrefixFixtures.diverging;
import static io.infergate.routing.prefix.PrefixFixtures.request;
import static io.infergate.routing.scheduling.Fixtures.cycle;
import static io.infergate.routing.scheduling.Fixtures.endpoint;
import static org.assertj.core.api.Assertions.assertThat;

class PrefixIndexConcurrencyTests {

	private static final int CAPACITY = 300;

	private static final int THREADS = 8;

	private static final int DECISIONS_PER_THREAD = 3_000;

	/** 40 prompt families of 24 blocks, each asked for with 0..24 blocks in common with its family's first prompt. */
	private final List<String> prompts = prompts();

	/** 80 endpoints: past 64 slots, so holder bit sets widen while readers read them. */
	private final List<Endpoint> endpoints = endpoints(80);

	private final PrefixIndex index = new PrefixIndex(new PrefixIndexProperties(64, 256, CAPACITY));

	@Test
	void manyThreadsScoringAndDispatchingLeaveABoundedConsistentIndex() throws Exception {
		ExecutorService threads = Executors.newFixedThreadPool(THREADS);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<?>> done = new ArrayList<>();
		for (int t = 0; t < THREADS; t++) {
			long seed = t;
			done.add(threads.submit(() -> {
				start.await();
				decide(new SplittableRandom(seed));
				return null;
			}));
		}
		start.countDown();
		for (Future<?> future : done) {
			future.get(2, TimeUnit.MINUTES);
		}
		threads.shutdown();

		PrefixIndexStats stats = index.stats();
		assertThat(stats.dispatchedRequests()).isEqualTo((long) THREADS * DECISIONS_PER_THREAD);
		assertThat(stats.blocksPerEndpoint().values()).allSatisfy((blocks) -> assertThat(blocks).isBetween(1, CAPACITY));
		Set<Long> union = new HashSet<>();
		for (String prompt : prompts) {
			PrefixHashes hashes = index.hash(request(prompt));
			int[] together = index.matchedBlocks(hashes, endpoints);
			for (int i = 0; i < endpoints.size(); i++) {
				assertThat(together[i]).isEqualTo(index.matchedBlocks(hashes, endpoints.get(i).id()));
			}
		}
		for (Endpoint endpoint : endpoints) {
			Set<Long> held = new HashSet<>();
			for (long hash : index.blocksByRecency(endpoint.id())) {
				held.add(hash);
			}
			union.addAll(held);
			for (String prompt : prompts) {
				PrefixHashes hashes = index.hash(request(prompt));
				int leadingRun = 0;
				while (leadingRun < hashes.blockCount() && held.contains(hashes.hash(leadingRun))) {
					leadingRun++;
				}
				for (int block = leadingRun; block < hashes.blockCount(); block++) {
					assertThat(held).as("blocks held by %s are prefix-closed", endpoint)
						.doesNotContain(hashes.hash(block));
				}
				assertThat(index.matchedBlocks(hashes, endpoint.id())).isEqualTo(leadingRun);
			}
		}
		assertThat(stats.entries()).isEqualTo(union.size());
		assertThat(stats.totalBlocks()).isLessThanOrEqualTo((long) CAPACITY * endpoints.size());
	}

	private void decide(SplittableRandom random) {
		for (int i = 0; i < DECISIONS_PER_THREAD; i++) {
			String prompt = prompts.get(random.nextInt(prompts.size()));
			int from = random.nextInt(endpoints.size() - 8);
			List<Endpoint> candidates = endpoints.subList(from, from + 8);
			SchedulingCycle cycle = cycle(request(prompt));
			int[] matched = index.matchedBlocks(cycle, candidates);
			int best = 0;
			for (int c = 1; c < matched.length; c++) {
				if (matched[c] > matched[best]) {
					best = c;
				}
			}
			index.onDispatch(cycle, candidates.get(random.nextInt(4) == 0 ? random.nextInt(8) : best));
		}
	}

	private static List<String> prompts() {
		List<String> prompts = new ArrayList<>();
		for (int family = 0; family < 40; family++) {
			for (int shared = 0; shared <= 24; shared += 6) {
				prompts.add(diverging("family-" + family, shared, 24));
			}
		}
		return prompts;
	}

	private static List<Endpoint> endpoints(int count) {
		List<Endpoint> endpoints = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			endpoints.add(endpoint(9000 + i));
		}
		return endpoints;
	}
}
