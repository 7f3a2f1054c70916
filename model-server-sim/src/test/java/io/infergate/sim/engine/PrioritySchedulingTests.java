package io.infergate.sim.engine;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** vLLM's priority scheduling policy, rule by rule, in small scripted scenarios run in virtual time. */
class PrioritySchedulingTests {

	/** 1000 µs per step, 10 µs per prefill token, 100 µs per decoding sequence. */
	private static final PerfProfile ROUND_PROFILE = new PerfProfile("round", 1000, 10, 100);

	private final RecordingListener events = new RecordingListener();

	private static EngineConfig.Builder config(SchedulingPolicy policy) {
		return EngineConfig.builder()
			.perfProfile(ROUND_PROFILE)
			.blockSize(16)
			.numKvBlocks(1000)
			.schedulingPolicy(policy);
	}

	private static EngineRequest request(int promptTokens, long seed, int maxTokens, int priority) {
		return new EngineRequest(Prompts.tokens(promptTokens, seed), null, maxTokens, priority, null);
	}

	@Test
	void aHigherPriorityRequestTakesTheFirstFreeSlotAheadOfAnEarlierLowerPriorityOne() {
		VirtualTimeEngine engine = new VirtualTimeEngine(config(SchedulingPolicy.PRIORITY).maxNumSeqs(2).build(),
				this.events);
		EngineRequest shortLow = engine.submit(0, request(20, 1, 3, 5));
		engine.submit(0, request(20, 2, 50, 5));
		EngineRequest earlierLow = engine.submit(10, request(20, 3, 5, 5));
		EngineRequest laterHigh = engine.submit(20, request(20, 4, 5, 0));

		// Step 1 admits the first two; the third step ends the short one at 1400 + 2·1200.
		engine.advanceTo(3801);
		assertThat(shortLow.isFinished()).isTrue();
		assertThat(laterHigh.state).isEqualTo(EngineRequest.State.RUNNING);
		assertThat(earlierLow.state).isEqualTo(EngineRequest.State.WAITING);

		engine.runUntilIdle();
		assertThat(laterHigh.firstTokenMicros()).isGreaterThan(shortLow.finishMicros());
		assertThat(earlierLow.firstTokenMicros()).isGreaterThan(laterHigh.finishMicros());
		assertThat(this.events.preempted).isEmpty();
	}

	@Test
	void equalPrioritiesAreServedInArrivalOrderThenSubmissionOrder() {
		VirtualTimeEngine engine = new VirtualTimeEngine(config(SchedulingPolicy.PRIORITY).maxNumSeqs(1).build(),
				this.events);
		EngineRequest running = engine.submit(0, request(10, 5, 2, 0));
		EngineRequest first = engine.submit(10, request(10, 6, 1, 3));
		EngineRequest second = engine.submit(20, request(10, 7, 1, 3));
		EngineRequest sameInstant = engine.submit(20, request(10, 8, 1, 3));
		EngineRequest higher = engine.submit(30, request(10, 9, 1, 1));

		engine.runUntilIdle();

		assertThat(this.events.finished).containsExactly(running, higher, first, second, sameInstant);
	}

	@Test
	void underKvPressureTheRunningRequestWithTheLargestPriorityIsPreemptedAndRecomputedLater() {
		// 9 blocks of 16: the low-priority request (admitted first) holds 5, the high-priority one 4; when the
		// high-priority one needs a fifth block, the low-priority one is preempted although it was scheduled first
		// in that step, not the most recently admitted one as under FCFS.
		VirtualTimeEngine engine = new VirtualTimeEngine(config(SchedulingPolicy.PRIORITY).numKvBlocks(9).build(),
				this.events);
		EngineRequest low = engine.submit(0, request(64, 10, 40, 1));
		EngineRequest high = engine.submit(1, request(60, 11, 40, 0));

		long stepStart = 0;
		while (this.events.preempted.isEmpty()) {
			stepStart = engine.nextEventMicros();
			engine.advanceTo(stepStart + 1);
		}

		assertThat(this.events.preempted).containsExactly(low);
		assertThat(low.numPreemptions()).isEqualTo(1);
		assertThat(low.numComputedTokens).isZero();
		assertThat(low.state).isEqualTo(EngineRequest.State.WAITING);
		// The preempted request's decode token went back to the budget: the step decodes only the other one.
		assertThat(engine.nextEventMicros() - stepStart).isEqualTo(1000 + 100);
		MetricsSnapshot metrics = engine.metrics();
		assertThat(metrics.numPreemptions()).isEqualTo(1);
		assertThat(metrics.numRequestsRunning()).isEqualTo(1);
		assertThat(metrics.numRequestsWaiting()).isEqualTo(1);

		engine.runUntilIdle();
		assertThat(this.events.finished).containsExactly(high, low);
		assertThat(high.numPreemptions()).isZero();
		assertThat(low.numOutputTokens()).isEqualTo(40);
		assertThat(engine.metrics().generationTokens()).isEqualTo(80);
	}

	@Test
	void amongEqualPrioritiesTheLatestArrivalIsPreempted() {
		VirtualTimeEngine engine = new VirtualTimeEngine(config(SchedulingPolicy.PRIORITY).numKvBlocks(10).build(),
				this.events);
		EngineRequest older = engine.submit(0, request(64, 8, 40, 0));
		EngineRequest newer = engine.submit(0, request(64, 9, 40, 0));

		engine.runUntilIdle();

		assertThat(this.events.preempted).isNotEmpty().allMatch((request) -> request == newer);
		assertThat(this.events.finished).containsExactly(older, newer);
	}

	@Test
	void sglangsConventionServesHigherValuesFirst() {
		VirtualTimeEngine engine = new VirtualTimeEngine(config(SchedulingPolicy.PRIORITY).maxNumSeqs(1)
			.priorityConvention(PriorityConvention.SGLANG)
			.build(), this.events);
		EngineRequest running = engine.submit(0, request(10, 12, 2, 0));
		EngineRequest zero = engine.submit(10, request(10, 13, 1, 0));
		EngineRequest five = engine.submit(20, request(10, 14, 1, 5));
		EngineRequest laterFive = engine.submit(25, request(10, 15, 1, 5));
		EngineRequest negative = engine.submit(30, request(10, 16, 1, -2));

		engine.runUntilIdle();

		assertThat(this.events.finished).containsExactly(running, five, laterFive, zero, negative);
	}

	@Test
	void fcfsRefusesAnyPriorityButZeroInVllmsWords() {
		VirtualTimeEngine engine = new VirtualTimeEngine(config(SchedulingPolicy.FCFS).build(), this.events);

		assertThat(engine.rejectionReason(10, 1, null, 3))
			.isEqualTo("Got priority 3 but Priority scheduling is not enabled.");
		assertThat(engine.rejectionReason(10, 1, null, -1))
			.isEqualTo("Got priority -1 but Priority scheduling is not enabled.");
		assertThat(engine.rejectionReason(10, 1, null, 0)).isNull();
		assertThat(engine.rejectionReason(10, 1, null)).isNull();
		assertThatIllegalArgumentException().isThrownBy(() -> engine.submit(0, request(10, 17, 1, 3)))
			.withMessage("Got priority 3 but Priority scheduling is not enabled.");

		VirtualTimeEngine priority = new VirtualTimeEngine(config(SchedulingPolicy.PRIORITY).build(), this.events);
		assertThat(priority.rejectionReason(10, 1, null, Integer.MIN_VALUE)).isNull();
		assertThat(priority.rejectionReason(10, 1, null, Integer.MAX_VALUE)).isNull();
	}

	@Test
	void fcfsUnderSglangsConventionAcceptsAPriorityAndIgnoresIt() {
		VirtualTimeEngine engine = new VirtualTimeEngine(config(SchedulingPolicy.FCFS).maxNumSeqs(1)
			.priorityConvention(PriorityConvention.SGLANG)
			.build(), this.events);
		assertThat(engine.rejectionReason(10, 1, null, 7)).isNull();
		EngineRequest running = engine.submit(0, request(10, 18, 2, 0));
		EngineRequest low = engine.submit(10, request(10, 19, 1, 1));
		EngineRequest high = engine.submit(20, request(10, 20, 1, 9));

		engine.runUntilIdle();

		assertThat(this.events.finished).containsExactly(running, low, high);
	}

	@Test
	void aWaitingHighPriorityRequestDoesNotPreemptARunningOneWhenOnlyMaxNumSeqsIsReached() {
		VirtualTimeEngine engine = new VirtualTimeEngine(config(SchedulingPolicy.PRIORITY).maxNumSeqs(1).build(),
				this.events);
		EngineRequest low = engine.submit(0, request(20, 21, 20, 10));
		EngineRequest high = engine.submit(10, request(20, 22, 1, 0));

		engine.advanceTo(5000);
		assertThat(engine.metrics().numRequestsRunning()).isEqualTo(1);
		assertThat(engine.metrics().numRequestsWaiting()).isEqualTo(1);
		assertThat(high.state).isEqualTo(EngineRequest.State.WAITING);

		engine.runUntilIdle();
		assertThat(this.events.preempted).isEmpty();
		assertThat(engine.metrics().numPreemptions()).isZero();
		assertThat(high.firstTokenMicros()).isGreaterThan(low.finishMicros());
	}

	@Test
	void anAbortedWaitingRequestLeavesThePriorityQueueAndTheOthersKeepTheirOrder() {
		VirtualTimeEngine engine = new VirtualTimeEngine(config(SchedulingPolicy.PRIORITY).maxNumSeqs(1).build(),
				this.events);
		EngineRequest running = engine.submit(0, request(10, 23, 5, 0));
		EngineRequest third = engine.submit(10, request(10, 24, 1, 3));
		EngineRequest aborted = engine.submit(20, request(10, 25, 1, 2));
		EngineRequest second = engine.submit(30, request(10, 26, 1, 1));

		engine.advanceTo(40);
		engine.abort(aborted);
		assertThat(engine.metrics().numRequestsWaiting()).isEqualTo(2);
		engine.runUntilIdle();

		assertThat(aborted.isAborted()).isTrue();
		assertThat(this.events.finished).containsExactly(running, second, third);
		assertThat(engine.metrics().numRequestsWaiting()).isZero();
	}

	@Test
	void requestsSkippedForTheirAdapterKeepTheirPlacesInPriorityOrder() {
		VirtualTimeEngine engine = new VirtualTimeEngine(config(SchedulingPolicy.PRIORITY).maxNumSeqs(1)
			.loraModules(List.of("a", "b"))
			.maxLoras(1)
			.loraLoadDelayMillis(1)
			.build(), this.events);
		EngineRequest onA = new EngineRequest(Prompts.tokens(20, 27), "a", 10, 0, null);
		EngineRequest lowOnB = new EngineRequest(Prompts.tokens(20, 28), "b", 2, 2, null);
		EngineRequest highOnB = new EngineRequest(Prompts.tokens(20, 29), "b", 2, 1, null);
		// Adapter a loads for 1 ms; its request runs from then on and holds the only sequence slot.
		engine.submit(0, onA);
		engine.submit(2000, lowOnB);
		engine.submit(2010, highOnB);
		EngineRequest base = engine.submit(2020, request(20, 30, 2, 3));

		engine.runUntilIdle();

		// When the adapter-a request ends, both b requests are skipped while b loads; the base-model request behind
		// them runs meanwhile, and then the b requests run in their priority order.
		assertThat(this.events.finished).containsExactly(onA, base, highOnB, lowOnB);
		assertThat(engine.metrics().numRequestsWaiting()).isZero();
		assertThat(engine.metrics().waitingLoraAdapters()).isEmpty();
	}
}
