package io.infergate.bench.quality.replay;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.infergate.bench.quality.workload.Workload;
import io.infergate.bench.quality.workload.WorkloadParser;

import static org.assertj.core.api.Assertions.assertThat;

class ConservationTests {

	@ParameterizedTest(name = "{0} arrivals, {1}")
	@CsvSource(delimiter = '|', textBlock = """
			poisson, rate: 200          | {type: shared-prefix, groups: 4, prompts-per-group: 8, system-prompt-len: 64, question-len: {mean: 16, stddev: 30}, output-len: 8} | false
			closed-loop, concurrency: 6 | {type: random, prompt-len: {mean: 160, stddev: 60}, output-len: {mean: 8, stddev: 4}}                                         | true
			poisson, rate: 300          | {type: multi-turn, conversations: 20, turns: 3, user-turn-len: {mean: 50, stddev: 30}, output-len: 6, think-time-ms: 5}        | true
			closed-loop, concurrency: 3 | {type: multi-turn, conversations: 20, turns: 3, user-turn-len: {mean: 50, stddev: 30}, output-len: 6}                            | true
			""")
	void everyRequestCompletesOrIsCountedAsFailed(String arrival, String shape, boolean someFail) {
		// 12 blocks of 16 tokens: prompts of more than 192 tokens with their output cannot be served and fail.
		Workload workload = WorkloadParser.parse("""
				name: conservation
				cluster: {pods: 3, kv-blocks: 12}
				arrival: {type: %s}
				requests: 40
				warmup: 10
				shape: %s
				""".formatted(arrival, shape));

		RunResult run = new Replay(workload, "least-request", 200, Replay.Progress.NONE).run();

		assertThat(run.issued()).isEqualTo(50);
		assertThat(run.completed() + run.failed()).isEqualTo(run.issued());
		assertThat(run.completed()).isPositive();
		assertThat(run.failed() > 0).isEqualTo(someFail);
		assertThat(run.measured()).hasSize(40).allSatisfy((record) -> assertThat(record.completed())
			.isNotEqualTo(record.failed()));
	}
}
