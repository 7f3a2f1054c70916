package io.infergate.bench.quality;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class DeterminismTests {

	private static final String WORKLOAD = """
			name: determinism
			seed: 11
			cluster: {pods: 4}
			arrival: {type: poisson, rate: 150}
			requests: 300
			warmup: 20
			shape: {type: shared-prefix, groups: 12, prompts-per-group: 25, system-prompt-len: {mean: 600, stddev: 100},
			        question-len: {mean: 60, stddev: 20}, output-len: {mean: 40, stddev: 10}}
			""";

	private static final String POLICIES = "round-robin,random,default,prefix-only,chwbl,hybrid,oracle";

	@TempDir
	Path dir;

	@Test
	void theSameSeedGivesByteIdenticalResultsApartFromWallClockTime() throws IOException {
		String first = run("first", "11", POLICIES);
		String second = run("second", "11", POLICIES);
		String otherSeed = run("third", "12", POLICIES);

		assertThat(withoutWallClock(second)).isEqualTo(withoutWallClock(first));
		assertThat(first).contains("\"schedulerMicrosP50\"");
		assertThat(withoutWallClock(otherSeed)).isNotEqualTo(withoutWallClock(first));
	}

	@Test
	void twoGatewayReplicasGiveByteIdenticalResultsForASeed() throws IOException {
		String policies = POLICIES + ",hybrid+dispatch-sharing,chwbl+dispatch-sharing";
		String first = run("first", "11", policies, "--gateways", "2");
		String second = run("second", "11", policies, "--gateways", "2");
		String otherSeed = run("third", "12", policies, "--gateways", "2");

		assertThat(withoutWallClock(second)).isEqualTo(withoutWallClock(first));
		assertThat(withoutWallClock(otherSeed)).isNotEqualTo(withoutWallClock(first));
		assertThat(withoutWallClock(first)).as("two replicas route otherwise than one")
			.isNotEqualTo(withoutWallClock(run("one", "11", policies)));
	}

	@Test
	void tenantsUnderFlowControlGiveByteIdenticalResultsWithRejectionsAndFiguresByTenant() throws IOException {
		String overloaded = WORKLOAD.replace("rate: 150", "rate: 1500") + """
				flow-control: true
				tenants:
				  interactive: {share: 0.3, priority: 0}
				  batch: {share: 0.7, priority: -1, weight: 2}
				""";
		String first = runWorkload(overloaded, "first", "11", "least-request,hybrid");
		String second = runWorkload(overloaded, "second", "11", "least-request,hybrid");

		assertThat(withoutWallClock(second)).isEqualTo(withoutWallClock(first));
		assertThat(first).containsPattern("\"rejected\": [1-9]")
			.contains("\"byTenant\": {\n        \"interactive\": {")
			.contains("\"batch\": {");
	}

	@Test
	void flowControlFiguresAppearOnlyWhenFlowControlIsOnOrTenantsAreNamed() throws IOException {
		String off = runWorkload(WORKLOAD + "flow-control: false\n", "off", "11", "least-request");
		String byDefault = runWorkload(WORKLOAD, "default", "11", "least-request");

		assertThat(off).doesNotContain("rejected").doesNotContain("byTenant");
		assertThat(byDefault).as("the gateway's default: flow control on").contains("\"rejected\": 0");
	}

	private String run(String name, String seed, String policies, String... more) throws IOException {
		return runWorkload(WORKLOAD, name, seed, policies, more);
	}

	private String runWorkload(String workloadText, String name, String seed, String policies, String... more)
			throws IOException {
		Path workload = dir.resolve(name + ".yaml");
		Files.writeString(workload, workloadText);
		Path out = dir.resolve(name);
		ByteArrayOutputStream sink = new ByteArrayOutputStream();
		PrintStream print = new PrintStream(sink, true, StandardCharsets.UTF_8);
		String[] args = Stream.concat(Stream.of("--workload", workload.toString(), "--policies", policies, "--seed",
				seed, "--out", out.toString()), Stream.of(more)).toArray(String[]::new);
		int status = new BenchCommand(print, print, false).run(args);
		assertThat(status).as(sink.toString(StandardCharsets.UTF_8)).isZero();
		assertThat(out.resolve("report.md")).exists();
		assertThat(out.resolve("ttft-cdf.png")).exists();
		return Files.readString(out.resolve("results.json"));
	}

	private static String withoutWallClock(String json) {
		return json.replaceAll("\"schedulerMicrosP50\": [0-9.]+", "\"schedulerMicrosP50\": _");
	}
}
