package io.infergate.gateway.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.unit.DataSize;

import io.infergate.gateway.capture.TrafficCapture;
import io.infergate.gateway.support.GatewayContexts;
import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.Sims;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The dashboard's Replay over HTTP, end to end: traffic through a gateway with the capture on, then a replay of that
 * capture (its file still being written) under three choices, one of them a profile only the gateway's own
 * configuration defines, polled until it is done.
 */
class DashboardReplayTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final int REQUESTS = 40;

	static final Sims sims = new Sims();

	@TempDir
	Path captures;

	@AfterAll
	static void stopSims() {
		sims.close();
	}

	private static HttpResponse<String> post(ConfigurableApplicationContext gateway, String path, String body) {
		return Http.send(HttpRequest.newBuilder(URI.create(GatewayContexts.managementUrl(gateway, path)))
			.timeout(Duration.ofSeconds(30))
			.header("Authorization", Http.basic(Http.ADMIN, Http.ADMIN_PASSWORD))
			.header("X-Infergate-Dashboard", "1")
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build());
	}

	/** Sends {@value #REQUESTS} chat completions in four prefix groups; returns the capture's one file once it holds them. */
	private static JsonNode capture(ConfigurableApplicationContext gateway) {
		for (int i = 0; i < REQUESTS; i++) {
			String prompt = ("Group " + (i % 4) + " shares this system prompt. ").repeat(40) + "Question " + i;
			assertThat(Http.postJson(GatewayContexts.url(gateway, "/v1/chat/completions"),
					Http.chat("llama", prompt, false, 8)).statusCode()).isEqualTo(200);
		}
		await().until(() -> gateway.getBean(MeterRegistry.class)
			.get(TrafficCapture.RECORDS)
			.tag("outcome", "written")
			.counter()
			.count() == REQUESTS);

		// the writer flushes once its queue is empty, just after counting the last record
		JsonNode listed = await().until(() -> JSON.readTree(Http.getAsAdmin(GatewayContexts.managementUrl(gateway,
				"/admin/api/replay/captures")).body()), (captures) -> captures.path("captures").path(0)
					.path("records").asLong() == REQUESTS);
		assertThat(listed.path("captures")).hasSize(1);
		JsonNode file = listed.path("captures").get(0);
		assertThat(file.path("routedRecords").asLong()).as(listed.toString()).isEqualTo(REQUESTS);
		assertThat(file.path("complete").asBoolean()).as("the capture still writes it").isFalse();
		return file;
	}

	/**
	 * The replay process this JVM runs, if any. Its command line is read whole from {@code /proc}: under Surefire it
	 * holds the whole test class path, longer than {@link ProcessHandle.Info#commandLine()} tells.
	 */
	private static Optional<ProcessHandle> replayProcess() {
		return ProcessHandle.current().descendants().filter((process) -> {
			try {
				return Files.readString(Path.of("/proc/" + process.pid() + "/cmdline"))
					.contains("\0" + ReplayWorkerCommand.NAME + "\0");
			}
			catch (IOException ex) {
				return false;
			}
		}).findFirst();
	}

	@Test
	void replaysTheCapturedTrafficUnderEachChoiceAndNamesTheWinnerWithItsYaml() {
		SimulatedModelServer first = sims.start("llama");
		SimulatedModelServer second = sims.start("llama");
		ConfigurableApplicationContext gateway = GatewayContexts.start(
				"--infergate.pools.llama.endpoints=" + first.baseUrl() + "," + second.baseUrl(),
				"--infergate.capture.enabled=true", "--infergate.capture.directory=" + captures,
				// the machine running the tests is busy: the run is not to wait for it to calm down
				"--infergate.management.dashboard.replay.yield-above=1",
				// a profile that only this gateway's configuration has
				"--infergate.scheduling.profiles.mine.filters=ready,circuit-breaker",
				"--infergate.scheduling.profiles.mine.scorers.prefix-cache=3",
				"--infergate.scheduling.profiles.mine.scorers.queue=1",
				"--infergate.scheduling.profiles.mine.picker=max-score");
		Logger root = ((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(Logger.ROOT_LOGGER_NAME);
		Level rootLevel = root.getLevel();
		try {
			JsonNode file = capture(gateway);
			HttpResponse<String> started = post(gateway, "/admin/api/replay/runs", "{\"fromMs\": "
					+ file.path("firstArrivalMs").asLong() + ", \"toMs\": " + (file.path("lastArrivalMs").asLong() + 1)
					+ ", \"choices\": [{\"profile\": \"mine\"}, {\"profile\": \"mine\", \"weights\": "
					+ "{\"prefix-cache\": 0}}, {\"profile\": \"round-robin\"}]}");
			assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
			long id = JSON.readTree(started.body()).path("id").asLong();
			// a handle kept from the first sight: while chrt executes java, /proc shows the process's command line empty
			AtomicReference<ProcessHandle> worker = new AtomicReference<>();
			await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).until(() -> {
				replayProcess().ifPresent(worker::set);
				return worker.get() != null || !JSON.readTree(Http.getAsAdmin(GatewayContexts.managementUrl(gateway,
						"/admin/api/replay/runs/" + id)).body()).path("state").asString().matches("reading|replaying");
			});
			assertThat(worker.get()).as("the run replays in a process of its own: %s", Http.getAsAdmin(
					GatewayContexts.managementUrl(gateway, "/admin/api/replay/runs/" + id)).body()).isNotNull();

			JsonNode run = await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250))
				.until(() -> JSON.readTree(Http.getAsAdmin(GatewayContexts.managementUrl(gateway,
						"/admin/api/replay/runs/" + id)).body()), (state) -> !state.path("state").asString()
							.matches("reading|replaying"));

			assertThat(run.path("state").asString()).as(run.toString()).isEqualTo("done");
			assertThat(run.path("trace").asString()).startsWith(REQUESTS + " routed requests from 1 capture file");
			assertThat(run.path("requestsDone").asLong()).isEqualTo(3L * REQUESTS)
				.isEqualTo(run.path("requestsTotal").asLong());
			assertThat(run.path("choices")).extracting((choice) -> choice.path("label").asString())
				.containsExactly("mine", "mine (prefix-cache 0)", "round-robin");
			for (JsonNode choice : run.path("choices")) {
				JsonNode figures = choice.path("figures");
				assertThat(figures.path("ttftP50Ms").asDouble()).isPositive();
				assertThat(figures.path("ttftP90Ms").asDouble()).isGreaterThanOrEqualTo(figures.path("ttftP50Ms").asDouble());
				assertThat(figures.path("requestsPerSec").asDouble()).isPositive();
				assertThat(figures.path("outputTokensPerSec").asDouble()).isPositive();
				assertThat(figures.path("prefixHitRate").asDouble()).isBetween(0.0, 1.0);
				assertThat(figures.path("failed").asLong()).isZero();
			}
			assertThat(run.path("choices").get(0).path("figures").path("prefixHitRate").asDouble())
				.as("prefix affinity keeps each group's prompt on one pod")
				.isGreaterThan(run.path("choices").get(1).path("figures").path("prefixHitRate").asDouble());
			int winner = run.path("winner").asInt();
			double winnerP90 = run.path("choices").get(winner).path("figures").path("ttftP90Ms").asDouble();
			for (JsonNode choice : run.path("choices")) {
				assertThat(winnerP90).isLessThanOrEqualTo(choice.path("figures").path("ttftP90Ms").asDouble());
			}
			assertThat(run.path("choices").get(winner).path("winner").asBoolean()).isTrue();
			assertThat(run.path("choices").get(0).path("yaml").asString()).isEqualTo("""
					infergate:
					  scheduling:
					    profiles:
					      mine:
					        filters: [ready, circuit-breaker]
					        scorers:
					          prefix-cache: 3
					          queue: 1
					        picker: max-score
					""");
			assertThat(run.path("choices").get(1).path("yaml").asString()).contains("prefix-cache: 0\n");
			assertThat(root.getLevel()).as("the gateway's logging is its own").isEqualTo(rootLevel);
			await().atMost(Duration.ofSeconds(10)).until(() -> !worker.get().isAlive());
		}
		finally {
			gateway.close();
		}
	}

	@Test
	void stoppingARunEndsItsProcessAndAProcessWhoseGatewayIsGoneEndsItself(@TempDir Path work) throws Exception {
		SimulatedModelServer pod = sims.start("llama");
		ConfigurableApplicationContext gateway = GatewayContexts.start("--infergate.pools.llama.endpoints=" + pod.baseUrl(),
				"--infergate.capture.enabled=true", "--infergate.capture.directory=" + captures,
				// slow enough to be caught running
				"--infergate.management.dashboard.replay.cpu-share=0.02");
		try {
			JsonNode file = capture(gateway);
			HttpResponse<String> started = post(gateway, "/admin/api/replay/runs",
					"{\"choices\": [{\"profile\": \"default\"}, {\"profile\": \"round-robin\"}, "
							+ "{\"profile\": \"llm-d\"}, {\"profile\": \"least-request\"}]}");
			assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
			long id = JSON.readTree(started.body()).path("id").asLong();
			ProcessHandle process = await().atMost(Duration.ofSeconds(60)).until(DashboardReplayTests::replayProcess,
					Optional::isPresent).orElseThrow();

			HttpResponse<String> stopped = post(gateway, "/admin/api/replay/runs/" + id + "/cancel", "{}");
			assertThat(stopped.statusCode()).as(stopped.body()).isEqualTo(200);
			JsonNode run = await().atMost(Duration.ofSeconds(30)).until(() -> JSON.readTree(Http.getAsAdmin(
					GatewayContexts.managementUrl(gateway, "/admin/api/replay/runs/" + id)).body()),
					(state) -> state.path("state").asString().equals("cancelled"));
			assertThat(run.path("endedAt").isNull()).isFalse();
			await().atMost(Duration.ofSeconds(10)).until(() -> !process.isAlive());

			// the same job, started the way the gateway starts it; the gateway's end closes the process's input
			Path job = work.resolve("job.properties");
			new ReplayJob(List.of(captures.resolve(file.path("name").asString())), Long.MIN_VALUE,
					Long.MAX_VALUE, 1000, 0.02, 1.0, List.of(new ReplayJob.Choice("default", Map.of())))
				.write(job);
			Process orphan = new ReplayProcess(DataSize.ofMegabytes(256)).start(job, work.resolve("errors"));
			try (BufferedReader lines = new BufferedReader(new InputStreamReader(orphan.getInputStream()))) {
				assertThat(lines.readLine()).startsWith("trace " + REQUESTS + " routed requests");
				orphan.getOutputStream().close();
				assertThat(orphan.waitFor(20, TimeUnit.SECONDS)).as("ends once its input closes").isTrue();
				assertThat(orphan.exitValue()).isEqualTo(ReplayWorkerCommand.ORPHANED);
			}
			finally {
				orphan.destroyForcibly();
			}
		}
		finally {
			gateway.close();
		}
	}
}
