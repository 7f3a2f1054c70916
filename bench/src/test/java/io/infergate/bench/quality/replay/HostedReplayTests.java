package io.infergate.bench.quality.replay;

import java.util.Map;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import io.infergate.bench.quality.workload.Workload;
import io.infergate.bench.quality.workload.WorkloadParser;

import static org.assertj.core.api.Assertions.assertThat;

/** A replay hosted in another application's JVM reads only what it is given, and leaves the host's logging alone. */
class HostedReplayTests {

	private static final Workload FOUR_REQUESTS = WorkloadParser.parse("""
			name: hosted
			cluster: {pods: 2}
			arrival: {type: closed-loop, concurrency: 1}
			requests: 4
			shape: {type: random, prompt-len: 100, output-len: 4}
			""");

	@Test
	void readsTheGivenPropertiesAndNotTheJvmsSystemProperties() {
		// a host's own configuration that the replay's engine would refuse
		System.setProperty("infergate.scheduling.profiles.round-robin.picker", "no-such-picker");
		try {
			RunResult run = new Replay(FOUR_REQUESTS, "given", Double.NaN, Replay.Progress.NONE)
				.hosted(Map.of("infergate.scheduling.profiles[given].filters[0]", "circuit-breaker",
						"infergate.scheduling.profiles[given].picker", "round-robin"))
				.run();

			assertThat(run.completed()).isEqualTo(4);
			assertThat(run.measured()).extracting(RequestRecord::pod).containsExactly(0, 1, 0, 1);
		}
		finally {
			System.clearProperty("infergate.scheduling.profiles.round-robin.picker");
		}
	}

	@Test
	void leavesTheHostsLogLevelsAsTheyWere() {
		Logger root = ((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(Logger.ROOT_LOGGER_NAME);
		Level before = root.getLevel();
		root.setLevel(Level.INFO);
		try {
			new Replay(FOUR_REQUESTS, "round-robin", Double.NaN, Replay.Progress.NONE).hosted(Map.of()).run();

			assertThat(root.getLevel()).as("a bench context sets root to warn").isEqualTo(Level.INFO);
		}
		finally {
			root.setLevel(before);
		}
	}
}
