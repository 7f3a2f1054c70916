package io.infergate.bench.quality.defaults;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class CompareDefaultsCommandTests {

	@TempDir
	Path dir;

	private final ByteArrayOutputStream out = new ByteArrayOutputStream();

	private final ByteArrayOutputStream err = new ByteArrayOutputStream();

	private int run(String... args) {
		return new CompareDefaultsCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
				new PrintStream(err, true, StandardCharsets.UTF_8), false).run(args);
	}

	private String err() {
		return err.toString(StandardCharsets.UTF_8);
	}

	@Test
	void theCandidatesAreTheShippedProfilesInTheirFilesOrder() {
		assertThat(CompareDefaultsCommand.shippedProfiles()).startsWith("default", "llm-d")
			.contains("least-request", "hybrid", "chwbl")
			.doesNotContain("oracle", "hybrid-engine-load");
	}

	@Test
	void aBadCommandLineIsOneLineAndStatusTwo() {
		assertThat(run("--workloads", "no-sharing")).isEqualTo(2);
		assertThat(err()).contains("--out DIR is required");
		assertThat(run("--out", dir.toString(), "--profiles", "default,fastest")).isEqualTo(2);
		assertThat(err()).contains("unknown profile 'fastest'");
		assertThat(run("--out", dir.toString(), "--gateways", "1")).isEqualTo(2);
		assertThat(err()).contains("--gateways must be an integer >= 2, got '1'");
		assertThat(run("--out", dir.toString(), "--workloads", "absent")).isEqualTo(2);
		assertThat(err()).contains("workload bench/workloads/absent.yaml: no such file");
		assertThat(run("--out", dir.toString(), "--fast")).isEqualTo(2);
		assertThat(err()).contains("unknown option '--fast'");
		assertThat(run("--help")).isZero();
		assertThat(out.toString(StandardCharsets.UTF_8)).contains("Usage: java -jar routing-bench.jar compare-defaults");
	}

	@Test
	void comparesTheCandidatesOnSmallerCopiesOfTheTargetWorkloads() throws IOException {
		Path workloads = Files.createDirectories(dir.resolve("workloads"));
		shrink("multi-turn-chat", workloads, "requests: 4096", "requests: 600", "warmup: 512", "warmup: 100",
				"conversations: 1024", "conversations: 150");
		shrink("no-sharing", workloads, "requests: 1024", "requests: 300");
		Path results = dir.resolve("out");

		assertThat(run("--out", results.toString(), "--workloads-dir", workloads.toString(), "--workloads",
				"multi-turn-chat,no-sharing", "--profiles", "default,llm-d,hybrid,least-request", "--gateways", "2"))
			.as(err())
			.isZero();

		String markdown = Files.readString(results.resolve("compare-defaults.md"));
		assertThat(markdown).isEqualTo(out.toString(StandardCharsets.UTF_8))
			.contains("| workload, N | default | llm-d | hybrid | least-request |")
			.contains("| multi-turn-chat, 1 |", "| multi-turn-chat, 2 |", "| no-sharing, 1 |", "| no-sharing, 2 |")
			.contains("## Verdict");
		// the shipped default is hybrid's definition: the same decisions, so the same figures on every row
		assertThat(markdown).contains("with the same figures as `hybrid`");
	}

	private static void shrink(String name, Path into, String... replacements) throws IOException {
		String yaml = Files.readString(Path.of("workloads", name + ".yaml"));
		for (int i = 0; i < replacements.length; i += 2) {
			assertThat(yaml).contains(replacements[i]);
			yaml = yaml.replace(replacements[i], replacements[i + 1]);
		}
		Files.writeString(into.resolve(name + ".yaml"), yaml);
	}
}
