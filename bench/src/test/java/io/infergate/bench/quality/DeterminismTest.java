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

class DeterminismTest {

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

	@TempDir
	Path dir;

	@Test
	void theSameSeedGivesByteIdenticalResultsApartFromWallClockTime() throws IOException {
		String first = run("first", "11");
		String second = run("second", "11");
		String otherSeed = run("third", "12");

		assertThat(withoutWallClock(second)).isEqualTo(withoutWallClock(first));
		assertThat(first).contains("\"schedulerMicrosP50\"");
		assertThat(withoutWallClock(otherSeed)).isNotEqualTo(withoutWallClock(first));
	}

	private String run(String name, String seed) throws IOException {
		Path workload = dir.resolve("determinism.yaml");
		Files.writeString(workload, WORKLOAD);
		Path out = dir.resolve(name);
		ByteArrayOutputStream sink = new ByteArrayOutputStream();
		PrintStream print = new PrintStream(sink, true, StandardCharsets.UTF_8);
		int status = new BenchCommand(print, print, false).run(new String[] { "--workload", workload.toString(),
				"--policies", "round-robin,random,default,prefix-only,chwbl,hybrid,oracle", "--seed", seed, "--out",
				out.toString() });
		assertThat(status).as(sink.toString(StandardCharsets.UTF_8)).isZero();
		assertThat(out.resolve("report.md")).exists();
		assertThat(out.resolve("ttft-cdf.png")).exists();
		return Files.readString(out.resolve("results.json"));
	}

	private static String withoutWallClock(String json) {
		return json.replaceAll("\"schedulerMicrosP50\": [0-9.]+", "\"schedulerMicrosP50\": _");
	}
}
