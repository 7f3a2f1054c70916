package io.infergate.bench.quality.live;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.infergate.bench.quality.BenchCommand;
import io.infergate.bench.quality.workload.WorkloadParser;

import static org.assertj.core.api.Assertions.assertThat;

/** What {@code --live} and {@code --capture} refuse, before anything starts. */
class LiveCommandLineTests {

	private static final String CLUSTER = "cluster: {pods: 2}\n";

	private static final String CONVERSATIONS = "shape: {type: multi-turn, conversations: 4, turns: 3, "
			+ "system-prompt-len: 32, user-turn-len: 16, output-len: 4, think-time-ms: 100}\n";

	@TempDir
	Path dir;

	private final ByteArrayOutputStream err = new ByteArrayOutputStream();

	private int run(String... args) {
		return new BenchCommand(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
				new PrintStream(err, true, StandardCharsets.UTF_8), false).run(args);
	}

	private String errors() {
		return err.toString(StandardCharsets.UTF_8);
	}

	private Path workload(String name, String yaml) throws IOException {
		Path file = dir.resolve(name + ".yaml");
		Files.writeString(file, "name: " + name + "\n" + yaml);
		return file;
	}

	@Test
	void captureWithoutLiveIsAUsageError() throws IOException {
		Path workload = workload("conversations", CLUSTER + "arrival: {type: poisson, rate: 10}\nrequests: 12\n"
				+ CONVERSATIONS);

		assertThat(run("--workload", workload.toString(), "--policies", "session", "--out",
				dir.resolve("out").toString(), "--capture", dir.resolve("captures").toString()))
			.isEqualTo(BenchCommand.EXIT_USAGE);
		assertThat(errors()).isEqualTo("routing-bench: --capture needs --live (--help for usage)\n");
		assertThat(dir.resolve("out")).doesNotExist();
	}

	@Test
	void liveRefusesClosedLoopArrivalSeveralRatesAndTenants() throws IOException {
		Path closedLoop = workload("closed-loop", CLUSTER + "arrival: {type: closed-loop, concurrency: 4}\n"
				+ "requests: 12\n" + CONVERSATIONS);
		Path ladder = workload("ladder", CLUSTER + "arrival: {type: poisson, ladder: [10, 20]}\nrequests: 12\n"
				+ CONVERSATIONS);
		Path tenants = workload("tenants", CLUSTER + "arrival: {type: poisson, rate: 10}\nrequests: 12\n"
				+ "tenants:\n  a: {share: 1}\n  b: {share: 1}\n" + CONVERSATIONS);

		assertThat(liveErrors(closedLoop))
			.isEqualTo("--live replays Poisson arrivals; closed-loop arrival is not supported");
		assertThat(liveErrors(ladder))
			.isEqualTo("--live replays one rate at a time; give the workload one rate (or --rate R)");
		assertThat(liveErrors(tenants))
			.isEqualTo("--live sends every request without an API key; a workload with tenants is not supported");
	}

	/** The usage error of a {@code --live} run of {@code workload}, without its prefix and suffix. */
	private String liveErrors(Path workload) {
		err.reset();
		assertThat(run("--live", "--workload", workload.toString(), "--policies", "session", "--out",
				dir.resolve("out").toString()))
			.isEqualTo(BenchCommand.EXIT_USAGE);
		assertThat(dir.resolve("out")).doesNotExist();
		String line = errors();
		assertThat(line).startsWith("routing-bench: ").endsWith(" (--help for usage)\n");
		return line.substring("routing-bench: ".length(), line.length() - " (--help for usage)\n".length());
	}

	@Test
	void liveAcceptsConversationsAloneAndInALoraMix() {
		String arrival = "arrival: {type: poisson, rate: 10}\nrequests: 12\n";

		assertThat(LiveRun.unsupported(WorkloadParser.parse("name: c\n" + CLUSTER + arrival + CONVERSATIONS)))
			.isNull();
		assertThat(LiveRun.unsupported(WorkloadParser.parse("name: m\ncluster: {pods: 2, max-loras: 1, adapters: [a]}\n"
				+ arrival + """
						shape: {type: lora-mix, adapter-weights: {a: 1, none: 1}, conversations: 4, turns: 3,
						        system-prompt-len: 32, user-turn-len: 16, output-len: 4, think-time-ms: 100}
						""")))
			.isNull();
	}
}
