package io.infergate.bench.quality;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class BenchCommandTests {

	@TempDir
	Path dir;

	private final ByteArrayOutputStream out = new ByteArrayOutputStream();

	private final ByteArrayOutputStream err = new ByteArrayOutputStream();

	private int run(String... args) {
		return new BenchCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
				new PrintStream(err, true, StandardCharsets.UTF_8), false).run(args);
	}

	private String errors() {
		return err.toString(StandardCharsets.UTF_8);
	}

	@Test
	void tellsHarnessCommandLinesFromJmhOnes() {
		assertThat(BenchCommand.isHarnessCommand(new String[] { "--workload", "w.yaml" })).isTrue();
		assertThat(BenchCommand.isHarnessCommand(new String[] { "--help" })).isTrue();
		assertThat(BenchCommand.isHarnessCommand(new String[] { "SchedulingBenchmark", "-f", "1" })).isFalse();
		assertThat(BenchCommand.isHarnessCommand(new String[] { "-h" })).isFalse();
	}

	@Test
	void helpPrintsUsage() {
		assertThat(run("--help")).isZero();
		assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("Usage: java -jar routing-bench.jar --workload");
	}

	@Test
	void aBadCommandLineIsOneLineNamingTheProblemAndExitTwo() {
		assertThat(run("--workload", "w.yaml", "--policies", "default")).isEqualTo(2);
		assertThat(errors()).isEqualTo("routing-bench: missing --out DIR (--help for usage)\n");
	}

	@Test
	void anUnknownOptionIsRejected() {
		assertThat(run("--workload", "w.yaml", "--policies", "default", "--out", "x", "--fast")).isEqualTo(2);
		assertThat(errors()).isEqualTo("routing-bench: unknown option '--fast' (--help for usage)\n");
	}

	@Test
	void flowControlIsTrueOrFalse() {
		assertThat(run("--workload", "w.yaml", "--policies", "default", "--out", "x", "--flow-control", "on"))
			.isEqualTo(2);
		assertThat(errors())
			.isEqualTo("routing-bench: --flow-control expects true or false, got 'on' (--help for usage)\n");
	}

	@Test
	void engineSchedulingIsFcfsOrPriorityAndWarmupAWholeNumber() {
		assertThat(run("--workload", "w.yaml", "--policies", "default", "--out", "x", "--engine-scheduling", "sjf"))
			.isEqualTo(2);
		assertThat(errors()).isEqualTo(
				"routing-bench: --engine-scheduling expects fcfs or priority, got 'sjf' (--help for usage)\n");
		err.reset();
		assertThat(run("--workload", "w.yaml", "--policies", "default", "--out", "x", "--warmup", "-3")).isEqualTo(2);
		assertThat(errors()).isEqualTo("routing-bench: --warmup expects a whole number >= 0, got '-3' (--help for usage)\n");
	}

	@Test
	void priorityEngineSchedulingAndTheWarmupFromTheCommandLineAreWhatTheReportSays() throws IOException {
		Path workload = dir.resolve("tenants.yaml");
		Files.writeString(workload, """
				name: tenants
				cluster: {pods: 2, max-num-seqs: 4}
				arrival: {type: poisson, rate: 200}
				requests: 40
				warmup: 5
				flow-control: true
				tenants:
				  interactive: {share: 0.3, priority: 0}
				  batch: {share: 0.7, priority: -1}
				shape: {type: random, prompt-len: 100, output-len: 8}
				""");
		Path out = dir.resolve("out");

		assertThat(run("--workload", workload.toString(), "--policies", "least-request", "--engine-scheduling",
				"priority", "--warmup", "12", "--out", out.toString()))
			.as(errors())
			.isZero();

		String report = Files.readString(out.resolve("report.md"));
		assertThat(report).contains("40 measured requests after 12 warm-up")
			.contains("Engine scheduling priority (the gateways forward each request's priority).")
			.contains("| rejected | sustained req/s |");
		assertThat(Files.readString(out.resolve("results.json"))).contains("\"sustainedRequestsPerSec\": ");
	}

	@Test
	void aBadWorkloadFileIsRejectedWithItsPathAndKey() throws IOException {
		Path workload = dir.resolve("bad.yaml");
		Files.writeString(workload, "name: bad\ncluster: {pods: 0}\n");

		assertThat(run("--workload", workload.toString(), "--policies", "default", "--out", dir.toString()))
			.isEqualTo(2);
		assertThat(errors()).isEqualTo("routing-bench: workload " + workload
				+ ": cluster.pods: expected an integer >= 1, got '0' (--help for usage)\n");
	}

	@Test
	void anUnknownPolicyIsRejectedListingTheDefinedOnes() {
		assertThat(run("--workload", "workloads/no-sharing.yaml", "--policies", "default,fastest", "--out",
				dir.toString()))
			.isEqualTo(2);
		assertThat(errors()).startsWith("routing-bench: unknown policy 'fastest'; defined policies: ")
			.contains("default, ")
			.contains("oracle, ")
			.contains("round-robin")
			.hasLineCount(1);
	}

	@Test
	void severalGatewayCountsRunInTurnAndAreKeyedByCountInTheResults() throws IOException {
		Path workload = dir.resolve("tiny.yaml");
		Files.writeString(workload, """
				name: tiny
				cluster: {pods: 2}
				arrival: {type: poisson, rate: 50}
				requests: 20
				shape: {type: shared-prefix, groups: 2, prompts-per-group: 10, system-prompt-len: 64, question-len: 8,
				        output-len: 4}
				""");
		Path out = dir.resolve("out");

		assertThat(run("--workload", workload.toString(), "--policies", "chwbl,hybrid+dispatch-sharing", "--gateways",
				"1,3", "--out", out.toString()))
			.as(errors())
			.isZero();

		String json = Files.readString(out.resolve("results.json"));
		assertThat(json).startsWith("{\n  \"workload\": \"tiny\",\n  \"gateways\": {\n    \"1\": {\n")
			.contains("\n    \"3\": {\n      \"workload\": \"tiny\",\n      \"policies\": {\n")
			.contains("\"hybrid+dispatch-sharing\": {");
		assertThat(out.resolve("ttft-p90-vs-gateways.png")).exists();
		assertThat(out.resolve("ttft-cdf-gateways-3.png")).exists();
		assertThat(Files.readString(out.resolve("report.md")))
			.contains("| policy | TTFT p90 ms, N=1 | TTFT p90 ms, N=3 |");
	}

	@Test
	void rejectsBadGatewayCountsAndALadderWithSeveralCounts() {
		assertThat(run("--workload", "workloads/no-sharing.yaml", "--policies", "default", "--out", dir.toString(),
				"--gateways", "2,0"))
			.isEqualTo(2);
		assertThat(run("--workload", "workloads/no-sharing.yaml", "--policies", "default", "--out", dir.toString(),
				"--gateways", "1,2", "--ladder", "10,20"))
			.isEqualTo(2);
		assertThat(run("--workload", "workloads/no-sharing.yaml", "--policies", "fastest+dispatch-sharing", "--out",
				dir.toString()))
			.isEqualTo(2);

		assertThat(errors()).isEqualTo("""
				routing-bench: --gateways expects whole numbers >= 1, got '0' (--help for usage)
				routing-bench: a ladder of rates and several --gateways cannot be combined; give one of them \
				(--help for usage)
				""" + "routing-bench: unknown policy 'fastest+dispatch-sharing'; defined policies: "
				+ String.join(", ", new java.util.TreeSet<>(io.infergate.bench.quality.replay.Replay.policies()))
				+ " (each also as NAME+dispatch-sharing) (--help for usage)\n");
	}
}
