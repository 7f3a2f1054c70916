package io.infergate.bench.quality.live;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.infergate.bench.quality.BenchCommand;
import io.infergate.bench.quality.replay.Policy;
import io.infergate.bench.quality.replay.RequestRecord;
import io.infergate.bench.quality.workload.Workload;
import io.infergate.bench.quality.workload.WorkloadParser;
import io.infergate.bench.quality.workload.WorkloadRequests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Multi-turn conversations replayed live through a gateway jar in front of two simulator jars, at time scale 1: six
 * conversations of three turns, under the {@code session} profile, whose session-affinity scorer (weight 3 against
 * 2 + 2 for the load scorers, which tie on idle pods) keeps a conversation on the pod of its first turn once the
 * gateway knows its {@code x-session-id}. Without the header every later turn would go to either pod (ties are
 * broken at random): all twelve kept by chance is one in 4,096.
 * <p>
 * It runs with the system tests, after the gateway jar is packaged: the gateway module depends on the bench module,
 * so the bench's own tests run before that jar exists.
 */
class LiveConversationTests {

	private static final String BUILD = "cd to the repository root and run ./mvnw -B -q -ntp -o -DskipTests package "
			+ "-pl model-server-sim,gateway-app -am";

	private static final String WORKLOAD = """
			name: live-conversations
			seed: 7
			flow-control: false
			cluster: {pods: 2, kv-blocks: 4000, max-num-seqs: 64}
			arrival: {type: poisson, rate: 6}
			requests: 18
			shape: {type: multi-turn, conversations: 6, turns: 3, system-prompt-len: 256, user-turn-len: 64,
			        output-len: 16, think-time-ms: {mean: 300, stddev: 100}}
			""";

	private static final double TIME_SCALE = 1;

	private static Path simJar;

	private static Path gatewayJar;

	@TempDir
	Path dir;

	@BeforeAll
	static void findJars() {
		Path root = Path.of("").toAbsolutePath();
		while (root != null && !Files.isDirectory(root.resolve("gateway-app"))) {
			root = root.getParent();
		}
		assumeTrue(root != null, "no repository root above " + Path.of("").toAbsolutePath());
		simJar = root.resolve("model-server-sim/target/model-server-sim.jar");
		gatewayJar = root.resolve("gateway-app/target/gateway-app.jar");
		assumeTrue(Files.isRegularFile(simJar) && Files.isRegularFile(gatewayJar),
				"needs " + simJar + " and " + gatewayJar + ": " + BUILD);
	}

	@Test
	void sendsEachTurnItsThinkTimeAfterThePreviousEndedOnItsSessionsPodAndCapturesEveryRequest() throws Exception {
		Workload workload = WorkloadParser.parse(WORKLOAD);
		Path captures = dir.resolve("captures");
		LiveReplay.Result result;
		try (LocalCluster cluster = LocalCluster.start(workload, Policy.parse("session"), 1, TIME_SCALE, simJar,
				gatewayJar, dir.resolve("logs"), captures)) {
			result = new LiveReplay(workload, "session", 6, TIME_SCALE, cluster.gateways(), cluster.pods()).run();
		}

		assertThat(result.run().issued()).isEqualTo(18);
		assertThat(result.run().completed()).isEqualTo(18);
		assertThat(result.turns()).hasSize(18).allSatisfy((turn) -> assertThat(turn.record().completed()).isTrue());
		WorkloadRequests requests = new WorkloadRequests(workload);
		for (int id = 0; id < 6; id++) {
			int conversation = id;
			List<LiveReplay.Turn> turns = result.turns()
				.stream()
				.filter((turn) -> turn.conversation() == conversation)
				.toList();
			assertThat(turns).extracting(LiveReplay.Turn::turn).containsExactly(0, 1, 2);
			for (int k = 0; k + 1 < turns.size(); k++) {
				RequestRecord ended = turns.get(k).record();
				long thinkMicros = requests.conversation(conversation).thinkMicrosAfter(k);
				// model µs rounded from wall ns on each side: 2 µs of slack
				assertThat(turns.get(k + 1).record().arrivalMicros())
					.as("conversation %d, turn %d", conversation, k + 1)
					.isGreaterThanOrEqualTo(ended.finishMicros() + thinkMicros - 2);
			}
			assertThat(turns).extracting((turn) -> turn.record().pod())
				.as("pods of conversation %d", conversation)
				.containsOnly(turns.get(0).record().pod());
		}
		assertThat(result.sessionTurnsKept()).isEqualTo(1.0);
		List<Path> files = captureFiles(captures);
		assertThat(files).isNotEmpty().allSatisfy((file) -> assertThat(file).startsWith(captures.resolve("gateway-0")));
		long records = 0;
		for (Path file : files) {
			records += gzipLines(file);
		}
		assertThat(records).isEqualTo(result.run().issued());
	}

	@Test
	void aCaptureOfALiveRunReplaysLiveItsConversationsClosedLoop() throws Exception {
		Workload workload = WorkloadParser.parse(WORKLOAD);
		Path captures = dir.resolve("captures");
		try (LocalCluster cluster = LocalCluster.start(workload, Policy.parse("session"), 1, TIME_SCALE, simJar,
				gatewayJar, dir.resolve("logs"), captures)) {
			new LiveReplay(workload, "session", 6, TIME_SCALE, cluster.gateways(), cluster.pods()).run();
		}
		Path out = dir.resolve("out");
		Path again = dir.resolve("again");
		ByteArrayOutputStream stdout = new ByteArrayOutputStream();
		ByteArrayOutputStream stderr = new ByteArrayOutputStream();

		int exit = new BenchCommand(new PrintStream(stdout, true, StandardCharsets.UTF_8),
				new PrintStream(stderr, true, StandardCharsets.UTF_8), false)
			.run(new String[] { "--live", "--trace", captures.resolve("gateway-0").toString(), "--cluster",
					writeWorkload().toString(), "--policies", "least-request", "--out", out.toString(),
					"--time-scale", "1", "--sim-jar", simJar.toString(), "--gateway-jar", gatewayJar.toString(),
					"--capture", again.toString() });

		assertThat(exit).as(stderr.toString(StandardCharsets.UTF_8)).isZero();
		String report = Files.readString(out.resolve("report.md"));
		// the three turns of six conversations: twelve later turns sent after their previous turn ended
		assertThat(report).contains("captured requests sent at their arrival times")
			.contains("18 routed requests")
			.contains("12 sent as conversations' next turns")
			.contains("| least-request | failed | 0 | 0 | |");
		long records = 0;
		for (Path file : captureFiles(again)) {
			records += gzipLines(file);
		}
		assertThat(records).isEqualTo(18);
	}

	private Path writeWorkload() throws IOException {
		return Files.writeString(dir.resolve("cluster.yaml"), WORKLOAD);
	}

	@Test
	void aLiveRunWithCaptureReportsConversationsKeptAndWhereTheCapturesAre() throws IOException {
		Path workload = dir.resolve("live-conversations.yaml");
		Files.writeString(workload, WORKLOAD);
		Path out = dir.resolve("out");
		Path captures = dir.resolve("captures");
		ByteArrayOutputStream stdout = new ByteArrayOutputStream();
		ByteArrayOutputStream stderr = new ByteArrayOutputStream();

		int exit = new BenchCommand(new PrintStream(stdout, true, StandardCharsets.UTF_8),
				new PrintStream(stderr, true, StandardCharsets.UTF_8), false)
			.run(new String[] { "--live", "--workload", workload.toString(), "--policies", "session", "--out",
					out.toString(), "--time-scale", "1", "--sim-jar", simJar.toString(), "--gateway-jar",
					gatewayJar.toString(), "--capture", captures.toString() });

		assertThat(exit).as(stderr.toString(StandardCharsets.UTF_8)).isZero();
		List<Path> files = captureFiles(captures);
		assertThat(files).isNotEmpty()
			.allSatisfy((file) -> assertThat(file).startsWith(captures.resolve("session").resolve("gateway-0")));
		String report = Files.readString(out.resolve("report.md"));
		assertThat(report).contains("conversations start at the workload's Poisson times at rate / turns")
			.contains("| session | session turns kept | 1.000 |")
			.contains("| session | failed | 0 | 0 | |")
			.contains("Traffic captures (docs/capture.md) in " + captures.toAbsolutePath())
			.contains(captures.relativize(files.get(0)).toString());
		assertThat(stdout.toString(StandardCharsets.UTF_8)).contains("Traffic captures");
	}

	private static List<Path> captureFiles(Path captures) throws IOException {
		try (Stream<Path> walk = Files.walk(captures)) {
			return walk.filter((file) -> file.getFileName().toString().matches("capture-.*\\.jsonl\\.gz"))
				.sorted()
				.collect(Collectors.toList());
		}
	}

	/** Lines of a gzip file, read to its end: a file cut short fails with an EOFException. */
	private static long gzipLines(Path file) throws IOException {
		try (BufferedReader reader = new BufferedReader(
				new InputStreamReader(new GZIPInputStream(Files.newInputStream(file)), StandardCharsets.UTF_8))) {
			return reader.lines().count();
		}
	}
}
