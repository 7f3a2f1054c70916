package io.infergate.sim.engine;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The same engine code under both clocks: one workload, the same outcome. */
class ClockAgreementTests {

	private static final EngineConfig CONFIG = EngineConfig.builder()
		.perfProfile(new PerfProfile("small", 2000, 2, 50))
		.maxNumSeqs(4)
		.numKvBlocks(24)
		.maxNumBatchedTokens(128)
		.build();

	/** Twelve requests, some sharing a prefix, with different output lengths; enough to queue and preempt. */
	private static List<EngineRequest> workload() {
		int[] sharedPrefix = Prompts.tokens(96, 100);
		List<EngineRequest> requests = new ArrayList<>();
		for (int i = 0; i < 12; i++) {
			int[] prompt = (i % 3 == 0) ? Prompts.tokens(40 + 8 * i, i)
					: Prompts.concat(sharedPrefix, Prompts.tokens(8 + i, 200 + i));
			requests.add(new EngineRequest(prompt, null, 5 + (i * 7) % 23, i));
		}
		return requests;
	}

	private record Completion(Object requestNumber, int outputTokens, int preemptions) {
	}

	@Test
	void virtualTimeAndWallClockRunsAgreeOnTokenCountsAndCompletionOrder() {
		List<Completion> virtual = new ArrayList<>();
		VirtualTimeEngine virtualEngine = new VirtualTimeEngine(CONFIG, completionRecorder(virtual));
		for (EngineRequest request : workload()) {
			virtualEngine.submit(0, request);
		}
		virtualEngine.runUntilIdle();

		List<Completion> wall = new CopyOnWriteArrayList<>();
		try (WallClockEngine wallEngine = new WallClockEngine(CONFIG, 20, completionRecorder(wall), "agreement")) {
			wallEngine.start();
			wallEngine.submitAll(workload());
			await().atMost(Duration.ofSeconds(30)).until(() -> wall.size() == 12);
			assertThat(wallEngine.metrics().generationTokens()).isEqualTo(virtualEngine.metrics().generationTokens());
			assertThat(wallEngine.metrics().numPreemptions()).isEqualTo(virtualEngine.metrics().numPreemptions());
		}

		assertThat(virtual).hasSize(12);
		assertThat(virtualEngine.metrics().numPreemptions()).as("the workload exercises preemption").isPositive();
		assertThat(wall).containsExactlyElementsOf(virtual);
	}

	private static EngineEventListener completionRecorder(List<Completion> completions) {
		return new EngineEventListener() {
			@Override
			public void onFinished(EngineRequest request, long timeMicros) {
				completions.add(new Completion(request.attachment(), request.numOutputTokens(),
						request.numPreemptions()));
			}
		};
	}
}
