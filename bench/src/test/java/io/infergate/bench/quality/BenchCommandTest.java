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

class BenchCommandTest {

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
}
