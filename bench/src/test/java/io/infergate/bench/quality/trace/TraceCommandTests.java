package io.infergate.bench.quality.trace;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.infergate.bench.quality.BenchCommand;
import io.infergate.bench.quality.workload.Workload;
import io.infergate.bench.quality.workload.WorkloadParser;

import static org.assertj.core.api.Assertions.assertThat;

class TraceCommandTests {

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

	private Path capture() throws IOException {
		Workload workload = WorkloadParser.parse("""
				name: small
				cluster: {pods: 2}
				arrival: {type: poisson, rate: 50}
				requests: 60
				shape: {type: shared-prefix, groups: 3, prompts-per-group: 20, system-prompt-len: 300,
				        question-len: 40, output-len: 8}
				""");
		Path file = dir.resolve("capture-20260101T000000Z-1.jsonl.gz");
		SynthesizeTraceCommand.write(workload, 50, 60, 1_800_000_000_000L, file);
		return file;
	}

	@Test
	void aTraceReplaysUnderEachPolicyOnTheGivenClusterAndSaysSoInTheReport() throws IOException {
		Path trace = capture();
		Path cluster = Files.writeString(dir.resolve("cluster.yaml"), "cluster: {pods: 3, max-num-seqs: 8}\n");
		Path out = dir.resolve("out");

		assertThat(run("--trace", dir.toString(), "--policies", "round-robin,prefix-only", "--speed", "2",
				"--cluster", cluster.toString(), "--warmup", "10", "--out", out.toString()))
			.as(errors())
			.isZero();

		String report = Files.readString(out.resolve("report.md"));
		assertThat(report).contains("3 pods (").contains("arrivals as captured")
			.contains("50 measured requests after 10 warm-up")
			.contains("60 routed requests over")
			.contains("(speed 2.0)")
			.contains("| round-robin |")
			.contains("| prefix-only |");
		assertThat(Files.readString(out.resolve("results.json"))).contains("\"round-robin\"");
	}

	@Test
	void aBadTraceIsOneLineNamingTheFileAndLine() throws IOException {
		byte[] bytes = Files.readAllBytes(capture());
		Path cut = Files.write(dir.resolve("cut.jsonl.gz"), Arrays.copyOf(bytes, bytes.length - 40));

		assertThat(run("--trace", cut.toString(), "--policies", "round-robin", "--out", dir.resolve("o").toString()))
			.isEqualTo(2);
		assertThat(errors()).matches("routing-bench: trace .*cut\\.jsonl\\.gz line \\d+: the file ends inside its "
				+ "gzip stream: .* \\(--help for usage\\)\n");
		assertThat(dir.resolve("o")).doesNotExist();
	}

	@Test
	void traceOptionsAreCheckedAgainstEachOther() throws IOException {
		assertThat(run("--trace", "t.jsonl.gz", "--workload", "w.yaml", "--policies", "default", "--out", "x"))
			.isEqualTo(2);
		assertThat(run("--workload", "w.yaml", "--policies", "default", "--out", "x", "--speed", "2")).isEqualTo(2);
		assertThat(run("--trace", "t.jsonl.gz", "--policies", "default", "--out", "x", "--rate", "5")).isEqualTo(2);
		assertThat(run("--trace", "t.jsonl.gz", "--policies", "default", "--out", "x", "--speed", "0")).isEqualTo(2);
		assertThat(errors()).isEqualTo("""
				routing-bench: give --workload or --trace, not both (--help for usage)
				routing-bench: --speed, --cluster and --open-loop need --trace (--help for usage)
				routing-bench: --rate, --ladder and --seed do not apply to --trace: a trace arrives as captured \
				(scale it with --speed) (--help for usage)
				routing-bench: --speed expects numbers > 0, got '0' (--help for usage)
				""");
		err.reset();
		assertThat(run("--trace", dir.resolve("none.jsonl.gz").toString(), "--policies", "default", "--out", "x"))
			.isEqualTo(2);
		assertThat(errors()).endsWith("none.jsonl.gz: no such file or directory (--help for usage)\n");
		err.reset();
		Path cluster = Files.writeString(dir.resolve("c.yaml"), "cluster: {pods: 0}\n");
		assertThat(run("--trace", capture().toString(), "--cluster", cluster.toString(), "--policies", "default",
				"--out", "x")).isEqualTo(2);
		assertThat(errors()).startsWith("routing-bench: cluster " + cluster + ": cluster.pods");
	}
}
