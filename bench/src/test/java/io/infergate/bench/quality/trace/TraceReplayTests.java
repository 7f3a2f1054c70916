package io.infergate.bench.quality.trace;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.infergate.bench.quality.replay.Replay;
import io.infergate.bench.quality.replay.RunResult;
import io.infergate.bench.quality.report.Figures;
import io.infergate.bench.quality.workload.Workload;
import io.infergate.bench.quality.workload.WorkloadParser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A workload written as a capture and replayed from it routes like the workload itself: its prompts are made up from
 * block hashes alone, yet each policy's prefix hit rate and TTFT match the original run's.
 */
class TraceReplayTests {

	private static final Workload WORKLOAD = WorkloadParser.parse("""
			name: shared-prefix-small
			seed: 7
			flow-control: false
			cluster: {pods: 4, kv-blocks: 29000, block-size: 16}
			arrival: {type: poisson, rate: 120}
			requests: 768
			warmup: 0
			shape:
			  type: shared-prefix
			  groups: 24
			  prompts-per-group: 32
			  system-prompt-len: 1024
			  question-len: 96
			  output-len: 64
			""");

	private static final List<String> POLICIES = List.of("round-robin", "prefix-only");

	@TempDir
	Path dir;

	@Test
	void aConversationsNextTurnIsSentItsThinkTimeAfterThePreviousTurnEndsInTheReplay() throws IOException {
		String line = "{\"v\":1,\"arrivalMs\":%d,\"pool\":\"p\",\"tenant\":\"00000000000000aa\",\"priority\":0,"
				+ "\"promptTokens\":%d,\"blockSizeChars\":64,\"blocks\":[%s],\"outputTokens\":50,\"status\":200,"
				+ "\"durationMs\":%s}";
		String first = "\"0000000000000001\",\"0000000000000002\"";
		Path file = java.nio.file.Files.writeString(dir.resolve("c.jsonl"), String.join("\n",
				line.formatted(1000, 40, first, "100"),
				// 400 ms of thinking after the first turn ended at 1,100 ms
				line.formatted(1500, 80, first + ",\"0000000000000003\"", "100"),
				// arrives on its own
				line.formatted(1600, 20, "", "100")));
		Workload workload = Trace.read(file, 1, Long.MIN_VALUE, Long.MAX_VALUE, 10)
			.workload(Trace.DEFAULT_CLUSTER, 0, false);

		RunResult run = new Replay(workload, "round-robin", Double.NaN, Replay.Progress.NONE).run();

		List<io.infergate.bench.quality.replay.RequestRecord> records = run.measured();
		assertThat(records).hasSize(3);
		// sent in the order they arrive in the replay: the lone request at 600 ms, then the second turn
		assertThat(records.get(0).arrivalMicros()).isZero();
		assertThat(records.get(1).arrivalMicros()).isEqualTo(600_000);
		assertThat(records.get(2).arrivalMicros()).isEqualTo(records.get(0).finishMicros() + 400_000);
	}

	@Test
	void aCapturedWorkloadReplaysWithTheOriginalsHitRatesAndTtft() throws IOException {
		Path file = dir.resolve("capture-synthetic.jsonl.gz");
		SynthesizeTraceCommand.write(WORKLOAD, 120, WORKLOAD.totalRequests(), 1_800_000_000_000L, file);
		Workload replayed = Trace.read(file, 1, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MAX_VALUE)
			.workload(WORKLOAD.cluster(), 0, false);
		assertThat(replayed.totalRequests()).isEqualTo(WORKLOAD.totalRequests());

		Map<String, Figures> original = new LinkedHashMap<>();
		Map<String, Figures> fromTrace = new LinkedHashMap<>();
		for (String policy : POLICIES) {
			original.put(policy, Figures.of(new Replay(WORKLOAD, policy, 120, Replay.Progress.NONE).run()));
			RunResult run = new Replay(replayed, policy, Double.NaN, Replay.Progress.NONE).run();
			assertThat(run.failed()).isZero();
			fromTrace.put(policy, Figures.of(run));
		}

		for (String policy : POLICIES) {
			System.out.printf("%s: TTFT p90 %.1f / %.1f ms, hit rate %.3f / %.3f (workload / trace)%n", policy,
					original.get(policy).ttftP90Ms(), fromTrace.get(policy).ttftP90Ms(),
					original.get(policy).prefixHitRate(), fromTrace.get(policy).prefixHitRate());
			Figures was = original.get(policy);
			Figures is = fromTrace.get(policy);
			assertThat(is.prefixHitRate()).as(policy + " hit rate").isCloseTo(was.prefixHitRate(), within(0.05));
			assertThat(is.ttftP90Ms()).as(policy + " TTFT p90").isCloseTo(was.ttftP90Ms(),
					within(0.10 * was.ttftP90Ms()));
		}
		// the ranking the workload gives is the ranking its capture gives
		assertThat(original.get("prefix-only").ttftP90Ms()).isLessThan(original.get("round-robin").ttftP90Ms());
		assertThat(fromTrace.get("prefix-only").ttftP90Ms()).isLessThan(fromTrace.get("round-robin").ttftP90Ms());
		assertThat(fromTrace.get("prefix-only").prefixHitRate()).isGreaterThan(fromTrace.get("round-robin")
			.prefixHitRate());
	}
}
