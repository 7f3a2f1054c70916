package io.infergate.sim.engine;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class VirtualTimeEngineTests {

	/** 1000 µs per step, 10 µs per prefill token, 100 µs per decoding sequence. */
	private static final PerfProfile ROUND_PROFILE = new PerfProfile("round", 1000, 10, 100);

	private final RecordingListener events = new RecordingListener();

	private static EngineConfig.Builder config() {
		return EngineConfig.builder().perfProfile(ROUND_PROFILE).blockSize(16).numKvBlocks(1000);
	}

	@Test
	void stepTimesFollowBeta0PlusBeta1PrefillTokensPlusBeta2DecodingSequences() {
		VirtualTimeEngine engine = new VirtualTimeEngine(config().build(), this.events);

		EngineRequest request = engine.submit(0, new EngineRequest(Prompts.tokens(100, 1), null, 3));
		engine.runUntilIdle();

		assertThat(request.firstTokenMicros()).isEqualTo(1000 + 10 * 100);
		assertThat(request.finishMicros()).isEqualTo(2000 + 2 * (1000 + 100));
		assertThat(request.numOutputTokens()).isEqualTo(3);
		assertThat(this.events.tokens).isEqualTo(3);
	}

	@Test
	void repeatedPromptTakesItsFullBlocksFromThePrefixCacheAndPrefillsOnlyTheRest() {
		VirtualTimeEngine engine = new VirtualTimeEngine(config().build(), this.events);
		int[] prompt = Prompts.tokens(100, 2);
		engine.submit(0, new EngineRequest(prompt, null, 1));
		long firstDone = engine.runUntilIdle();

		EngineRequest repeat = engine.submit(firstDone, new EngineRequest(prompt, null, 1));
		engine.runUntilIdle();

		// 6 full blocks (96 tokens) hit; 4 tokens are computed.
		assertThat(repeat.cachedPromptTokens()).isEqualTo(96);
		assertThat(repeat.firstTokenMicros() - firstDone).isEqualTo(1000 + 10 * 4);
		MetricsSnapshot metrics = engine.metrics();
		assertThat(metrics.prefixCacheQueryTokens()).isEqualTo(200);
		assertThat(metrics.prefixCacheHitTokens()).isEqualTo(96);
	}

	@Test
	void aPromptFullyCachedStillComputesItsLastToken() {
		VirtualTimeEngine engine = new VirtualTimeEngine(config().build(), this.events);
		int[] prompt = Prompts.tokens(64, 3);
		engine.submit(0, new EngineRequest(prompt, null, 1));
		engine.runUntilIdle();

		assertThat(engine.cachedPrefixTokens(prompt, null)).isEqualTo(48);
	}

	@Test
	void requestsBeyondMaxNumSeqsWaitAndThenDrain() {
		VirtualTimeEngine engine = new VirtualTimeEngine(config().maxNumSeqs(2).build(), this.events);
		for (int i = 0; i < 5; i++) {
			engine.submit(0, new EngineRequest(Prompts.tokens(20, 10 + i), null, 4));
		}

		engine.advanceTo(1);
		assertThat(engine.metrics().numRequestsRunning()).isEqualTo(2);
		assertThat(engine.metrics().numRequestsWaiting()).isEqualTo(3);

		engine.runUntilIdle();
		assertThat(engine.metrics().numRequestsRunning()).isZero();
		assertThat(engine.metrics().numRequestsWaiting()).isZero();
		assertThat(this.events.finished).hasSize(5);
	}

	@Test
	void chunkedPrefillSpreadsALongPromptOverStepsWithinTheTokenBudget() {
		VirtualTimeEngine engine = new VirtualTimeEngine(config().maxNumBatchedTokens(64).build(), this.events);

		EngineRequest request = engine.submit(0, new EngineRequest(Prompts.tokens(200, 4), null, 1));
		engine.runUntilIdle();

		// Chunks of 64, 64, 64 and 8 tokens: four steps.
		assertThat(request.firstTokenMicros()).isEqualTo(4 * 1000 + 10 * 200);
	}

	@Test
	void decodingRequestsShareTheTokenBudgetWithPrefillChunks() {
		VirtualTimeEngine engine = new VirtualTimeEngine(config().maxNumBatchedTokens(64).build(), this.events);
		EngineRequest decoding = engine.submit(0, new EngineRequest(Prompts.tokens(10, 5), null, 10));
		// Prefill step [0, 1100), first decode step [1100, 2200).
		engine.advanceTo(1500);

		EngineRequest prefilling = engine.submit(1500, new EngineRequest(Prompts.tokens(126, 6), null, 1));
		engine.runUntilIdle();

		// From 2200 each step carries the decoder's token and a 63-token chunk: 1000 + 10·63 + 100 µs, twice.
		assertThat(prefilling.firstTokenMicros()).isEqualTo(2200 + 2 * (1000 + 10 * 63 + 100));
		assertThat(decoding.numOutputTokens()).isEqualTo(10);
	}

	@Test
	void kvUsageCountsTheBlocksOfRunningRequestsAndFallsBackWhenTheyEnd() {
		VirtualTimeEngine engine = new VirtualTimeEngine(config().numKvBlocks(100).build(), this.events);
		engine.submit(0, new EngineRequest(Prompts.tokens(320, 7), null, 5));

		engine.advanceTo(1);
		assertThat(engine.metrics().kvCacheUsage()).isEqualTo(0.20);

		engine.runUntilIdle();
		assertThat(engine.metrics().kvCacheUsage()).isZero();
	}

	@Test
	void preemptsTheMostRecentlyAdmittedRequestWhenKvBlocksRunOut() {
		VirtualTimeEngine engine = new VirtualTimeEngine(config().numKvBlocks(10).build(), this.events);
		EngineRequest older = engine.submit(0, new EngineRequest(Prompts.tokens(64, 8), null, 40));
		EngineRequest newer = engine.submit(0, new EngineRequest(Prompts.tokens(64, 9), null, 40));

		engine.runUntilIdle();

		assertThat(this.events.preempted).isNotEmpty().allMatch((request) -> request == newer);
		assertThat(engine.metrics().numPreemptions()).isEqualTo(this.events.preempted.size());
		assertThat(this.events.finished).containsExactly(older, newer);
		assertThat(newer.numOutputTokens()).isEqualTo(40);
		assertThat(engine.metrics().generationTokens()).isEqualTo(80);
	}

	@Test
	void evictsTheLeastRecentlyUsedPrefixFirstAndItsLeavesBeforeItsRoot() {
		VirtualTimeEngine engine = new VirtualTimeEngine(config().numKvBlocks(12).build(), this.events);
		int[] first = Prompts.tokens(64, 11);
		int[] second = Prompts.tokens(64, 12);
		int[] third = Prompts.tokens(64, 13);
		for (int[] prompt : List.of(first, second, third)) {
			engine.submit(engine.nowMicros(), new EngineRequest(prompt, null, 1));
			engine.runUntilIdle();
		}
		assertThat(engine.cachedPrefixTokens(first, null)).isEqualTo(48);

		// Two new blocks evict the two leaf blocks of the least recently used prompt.
		engine.submit(engine.nowMicros(), new EngineRequest(Prompts.tokens(32, 14), null, 1));
		engine.runUntilIdle();

		assertThat(engine.cachedPrefixTokens(first, null)).isEqualTo(32);
		assertThat(engine.cachedPrefixTokens(second, null)).isEqualTo(48);
		assertThat(engine.cachedPrefixTokens(third, null)).isEqualTo(48);
	}

	@Test
	void adaptersNeverShareCachedBlocks() {
		VirtualTimeEngine engine = new VirtualTimeEngine(
				config().loraModules(List.of("support")).loraLoadDelayMillis(0).build(), this.events);
		int[] prompt = Prompts.tokens(100, 15);
		engine.submit(0, new EngineRequest(prompt, null, 1));
		engine.runUntilIdle();

		assertThat(engine.cachedPrefixTokens(prompt, null)).isEqualTo(96);
		assertThat(engine.cachedPrefixTokens(prompt, "support")).isZero();
	}

	@Test
	void anAdapterLoadsOnDemandAndDelaysItsFirstRequestByTheLoadDelay() {
		VirtualTimeEngine engine = new VirtualTimeEngine(
				config().loraModules(List.of("support")).loraLoadDelayMillis(50).build(), this.events);

		EngineRequest request = engine.submit(0, new EngineRequest(Prompts.tokens(20, 16), "support", 1));
		engine.runUntilIdle();

		assertThat(request.firstTokenMicros()).isEqualTo(50_000 + 1000 + 10 * 20);
		assertThat(engine.loadedAdapters()).containsExactly("support");
	}

	@Test
	void requestsForAnotherAdapterWaitWhileEverySlotServesRunningRequests() {
		VirtualTimeEngine engine = new VirtualTimeEngine(
				config().loraModules(List.of("a", "b")).maxLoras(1).loraLoadDelayMillis(10).build(), this.events);
		EngineRequest first = engine.submit(0, new EngineRequest(Prompts.tokens(20, 17), "a", 50));
		EngineRequest second = engine.submit(0, new EngineRequest(Prompts.tokens(20, 18), "b", 1));

		engine.advanceTo(20_000);
		MetricsSnapshot metrics = engine.metrics();
		assertThat(metrics.runningLoraAdapters()).containsExactly("a");
		assertThat(metrics.waitingLoraAdapters()).containsExactly("b");

		engine.runUntilIdle();
		assertThat(second.firstTokenMicros()).isGreaterThanOrEqualTo(first.finishMicros() + 10_000);
		assertThat(engine.metrics().runningLoraAdapters()).isEmpty();
		assertThat(engine.metrics().waitingLoraAdapters()).isEmpty();
	}

	@Test
	void idleAdaptersAreEvictedLeastRecentlyUsedFirst() {
		VirtualTimeEngine engine = new VirtualTimeEngine(
				config().loraModules(List.of("a", "b", "c")).maxLoras(2).loraLoadDelayMillis(1).build(), this.events);
		for (String adapter : List.of("a", "b", "a", "c")) {
			engine.submit(engine.nowMicros(), new EngineRequest(Prompts.tokens(20, 19), adapter, 1));
			engine.runUntilIdle();
		}

		assertThat(engine.loadedAdapters()).containsExactlyInAnyOrder("a", "c");
	}

	@Test
	void anIdleEngineTakesNoSteps() {
		VirtualTimeEngine engine = new VirtualTimeEngine(config().build(), this.events);
		assertThat(engine.nextEventMicros()).isEqualTo(Long.MAX_VALUE);

		engine.submit(0, new EngineRequest(Prompts.tokens(20, 20), null, 2));
		long done = engine.runUntilIdle();
		engine.advanceTo(done + 60_000_000);

		assertThat(engine.nextEventMicros()).isEqualTo(Long.MAX_VALUE);
		assertThat(this.events.tokens).isEqualTo(2);
	}

	@Test
	void requestsSubmittedAtTheSameInstantShareOneStep() {
		VirtualTimeEngine engine = new VirtualTimeEngine(config().build(), this.events);

		EngineRequest first = engine.submit(0, new EngineRequest(Prompts.tokens(10, 21), null, 1));
		EngineRequest second = engine.submit(0, new EngineRequest(Prompts.tokens(10, 22), null, 1));
		engine.runUntilIdle();

		assertThat(first.firstTokenMicros()).isEqualTo(1000 + 10 * 20);
		assertThat(second.firstTokenMicros()).isEqualTo(first.firstTokenMicros());
	}

	@Test
	void thePrefixCacheQueryChangesNothing() {
		VirtualTimeEngine engine = new VirtualTimeEngine(config().numKvBlocks(8).build(), this.events);
		int[] prompt = Prompts.tokens(64, 23);
		engine.submit(0, new EngineRequest(prompt, null, 1));
		engine.runUntilIdle();
		MetricsSnapshot before = engine.metrics();

		for (int i = 0; i < 3; i++) {
			assertThat(engine.cachedPrefixTokens(prompt, null)).isEqualTo(48);
		}

		MetricsSnapshot after = engine.metrics();
		assertThat(after.prefixCacheQueryTokens()).isEqualTo(before.prefixCacheQueryTokens());
		assertThat(after.prefixCacheHitTokens()).isEqualTo(before.prefixCacheHitTokens());
		assertThat(after.kvCacheUsage()).isZero();
	}

	@Test
	void abortingFreesARunningRequestsBlocksAndDropsAWaitingOne() {
		VirtualTimeEngine engine = new VirtualTimeEngine(config().maxNumSeqs(1).build(), this.events);
		EngineRequest running = engine.submit(0, new EngineRequest(Prompts.tokens(64, 25), null, 100));
		EngineRequest waiting = engine.submit(0, new EngineRequest(Prompts.tokens(64, 26), null, 100));
		engine.advanceTo(10_000);

		engine.abort(waiting);
		engine.abort(running);
		engine.runUntilIdle();

		assertThat(running.isAborted()).isTrue();
		assertThat(waiting.isAborted()).isTrue();
		assertThat(this.events.finished).isEmpty();
		MetricsSnapshot metrics = engine.metrics();
		assertThat(metrics.numRequestsRunning()).isZero();
		assertThat(metrics.numRequestsWaiting()).isZero();
		assertThat(metrics.kvCacheUsage()).isZero();
	}

	@Test
	void refusesRequestsLongerThanTheModelLengthInVllmsWords() {
		VirtualTimeEngine engine = new VirtualTimeEngine(config().maxModelLen(100).build(), this.events);

		assertThat(engine.rejectionReason(90, 20, null)).isEqualTo("'max_tokens' or 'max_completion_tokens' is too "
				+ "large: 20. This model's maximum context length is 100 tokens and your request has 90 input tokens "
				+ "(20 > 100 - 90).");
		assertThat(engine.rejectionReason(101, 1, null)).isEqualTo("This model's maximum context length is 100 "
				+ "tokens. However, your request has 101 input tokens. Please reduce the length of the input messages.");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> engine.submit(0, new EngineRequest(Prompts.tokens(90, 24), null, 20)));
		assertThat(engine.rejectionReason(80, 20, null)).isNull();
	}
}
