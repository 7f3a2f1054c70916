package io.infergate.bench.streams;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.SimulatorConfig;
import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.PerfProfile;

import static org.assertj.core.api.Assertions.assertThat;

class StreamHoldCommandTests {

	@Test
	void holdsEveryStreamOpenAndTimesTheGapsBetweenItsEvents() throws Exception {
		// one decoding step every 10 ms: the gaps between events are about that
		PerfProfile tenMillisPerStep = PerfProfile.ZERO.withCoefficients(10_000.0, null, null);
		try (SimulatedModelServer first = start(tenMillisPerStep); SimulatedModelServer second = start(tenMillisPerStep)) {
			ByteArrayOutputStream printed = new ByteArrayOutputStream();

			int status = new StreamHoldCommand(new PrintStream(printed, true, StandardCharsets.UTF_8)).run(new String[] {
					"--url", first.baseUrl() + "/v1/chat/completions," + second.baseUrl() + "/v1/chat/completions",
					"--streams", "6", "--max-tokens", "20", "--model", "m" });

			String out = printed.toString(StandardCharsets.UTF_8);
			assertThat(status).isZero();
			assertThat(out).contains("OPEN 6\n").contains("streams 6 complete 6 failed 0");
			String gaps = out.lines().filter((line) -> line.startsWith("gap_ms")).findFirst().orElseThrow();
			String[] figures = gaps.split(" ");
			double p50 = Double.parseDouble(figures[2]);
			double p90 = Double.parseDouble(figures[4]);
			// on a loaded machine consecutive events can arrive in one read, a gap of about 0, pulling the median
			// below the step; the slower gaps still show it
			assertThat(p50).isLessThanOrEqualTo(60.0);
			assertThat(p90).isBetween(5.0, 120.0);
		}
	}

	@Test
	void aStreamThatIsRefusedIsCountedWithItsStatus() throws Exception {
		try (SimulatedModelServer server = start(PerfProfile.ZERO)) {
			ByteArrayOutputStream printed = new ByteArrayOutputStream();

			int status = new StreamHoldCommand(new PrintStream(printed, true, StandardCharsets.UTF_8)).run(new String[] {
					"--url", server.baseUrl() + "/v1/chat/completions", "--streams", "2", "--max-tokens", "5",
					"--model", "not-served", "--open-timeout", "10" });

			assertThat(status).isEqualTo(1);
			assertThat(printed.toString(StandardCharsets.UTF_8)).contains("failed 2").contains("failures {HTTP 404=2}");
		}
	}

	private static SimulatedModelServer start(PerfProfile profile) {
		return new SimulatedModelServer(
				SimulatorConfig.builder("m").engine(EngineConfig.builder().perfProfile(profile).build()).build())
			.start();
	}
}
