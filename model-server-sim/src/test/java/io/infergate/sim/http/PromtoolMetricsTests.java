package io.infergate.sim.http;

import java.io.File;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.SimulatorConfig;
import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.PerfProfile;
import io.infergate.sim.metrics.EngineFlavor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Each engine's {@code /metrics}, after some traffic, passes {@code promtool check metrics}: exit 0, or 3 for lint
 * findings only (vLLM's and SGLang's ':' in names, {@code _created} series without help); exit 1 is a parse error.
 * Without promtool on the PATH the test fails, naming the package that installs it: it is never skipped.
 */
class PromtoolMetricsTests {

	private static final String PROMTOOL = "promtool";

	@ParameterizedTest
	@EnumSource(EngineFlavor.class)
	void metricsExpositionPassesPromtool(EngineFlavor flavor) throws Exception {
		String promtool = findPromtool();
		try (SimulatedModelServer server = new SimulatedModelServer(SimulatorConfig.builder("meta-llama/Llama-3.1-8B")
			.engineFlavor(flavor)
			.engine(EngineConfig.builder()
				.perfProfile(PerfProfile.ZERO)
				.loraModules(List.of("support-lora", "sql-lora"))
				.maxLoras(2)
				.loraLoadDelayMillis(0)
				.build())
			.build()).start()) {
			SimHttpClient http = new SimHttpClient(server);
			http.post("/v1/chat/completions", SimHttpClient.chatBody("support-lora", "Hello there, how are you?", 3, false));
			http.post("/v1/chat/completions", SimHttpClient.chatBody("meta-llama/Llama-3.1-8B", "Hello", 2, true));
			String exposition = http.get("/metrics").body();

			Process check = new ProcessBuilder(promtool, "check", "metrics").redirectErrorStream(true).start();
			try (OutputStream stdin = check.getOutputStream()) {
				stdin.write(exposition.getBytes(StandardCharsets.UTF_8));
			}
			String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			assertThat(check.waitFor(30, TimeUnit.SECONDS)).isTrue();

			assertThat(check.exitValue()).as("promtool exit code; output:%n%s", output).isIn(0, 3);
		}
	}

	private static String findPromtool() {
		String path = System.getenv("PATH");
		for (String directory : (path != null ? path : "").split(File.pathSeparator)) {
			File candidate = new File(directory, PROMTOOL);
			if (candidate.canExecute()) {
				return candidate.getPath();
			}
		}
		return fail("promtool is not on the PATH: install it with 'apt-get install prometheus' (.ci/run does)");
	}
}
