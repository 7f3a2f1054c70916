package io.infergate.admin.web;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RouterFunctions;

import io.infergate.admin.replay.ReplayRuns;
import io.infergate.routing.scheduling.config.SchedulingProfiles;
import io.infergate.routing.scheduling.config.SchedulingProperties;
import io.infergate.routing.scheduling.filter.CircuitBreakerFilter;
import io.infergate.routing.scheduling.load.InFlightLoad;
import io.infergate.routing.scheduling.picker.MaxScorePicker;
import io.infergate.routing.scheduling.scorer.MetricScorer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Replay view's API: what it starts, what it refuses and why, and how it reports a run, with a stand-in for the
 * gateway's replays.
 */
class ReplayHandlersTests {

	private static final long CAPTURED_FROM_MS = Instant.parse("2026-12-06T10:00:00Z").toEpochMilli();

	private static final long CAPTURED_TO_MS = Instant.parse("2026-12-06T11:00:00Z").toEpochMilli();

	private final SchedulingProfiles profiles = profiles();

	private final StandInRuns runs = new StandInRuns();

	private final DashboardJson json = new DashboardJson();

	private WebTestClient client(ReplayRuns replayRuns) {
		ReplayHandlers handlers = new ReplayHandlers(replayRuns, profiles, json);
		return WebTestClient.bindToRouterFunction(RouterFunctions.route()
			.GET("/admin/api/replay/captures", handlers::captures)
			.GET("/admin/api/replay/runs", handlers::list)
			.POST("/admin/api/replay/runs", handlers::start)
			.GET("/admin/api/replay/runs/{id}", handlers::get)
			.POST("/admin/api/replay/runs/{id}/cancel", handlers::cancel)
			.build()).build();
	}

	private EntityExchangeResult<byte[]> post(ReplayRuns replayRuns, String path, String body) {
		return client(replayRuns).post()
			.uri(path)
			.header(RuntimeChangeHandlers.ORIGIN_HEADER, "1")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(body)
			.exchange()
			.expectBody()
			.returnResult();
	}

	private JsonNode body(EntityExchangeResult<byte[]> result) {
		return json.read(result.getResponseBody());
	}

	@Test
	void startsARunOfEachChoiceWithTheRunningWeightsAndThoseGivenInTheirPlace() {
		EntityExchangeResult<byte[]> started = post(runs, "/admin/api/replay/runs", "{\"fromMs\": " + CAPTURED_FROM_MS
				+ ", \"toMs\": " + CAPTURED_TO_MS + ", \"choices\": [{\"profile\": \"llm-d\"},"
				+ " {\"profile\": \"llm-d\", \"weights\": {\"kv-cache\": 0.5}}, {\"profile\": \"round-robin\"}]}");

		assertThat(started.getStatus().value()).as(new String(started.getResponseBody(), StandardCharsets.UTF_8))
			.isEqualTo(202);
		assertThat(started.getResponseHeaders().getLocation()).hasToString("runs/1");
		ReplayRuns.RunRequest request = runs.started.get(0);
		assertThat(request.fromMs()).isEqualTo(CAPTURED_FROM_MS);
		assertThat(request.toMs()).isEqualTo(CAPTURED_TO_MS);
		assertThat(request.choices()).extracting(ReplayRuns.Choice::label)
			.containsExactly("llm-d", "llm-d (kv-cache 0.5)", "round-robin");
		assertThat(request.choices().get(1).weights()).isEqualTo(Map.of("queue", 2.0, "kv-cache", 0.5));
		assertThat(request.choices().get(2).weights()).isEmpty();
		JsonNode run = body(started);
		assertThat(run.path("state").asString()).isEqualTo("reading");
		assertThat(run.path("choices").get(1).path("label").asString()).isEqualTo("llm-d (kv-cache 0.5)");
	}

	@Test
	void aWholeCaptureIsAWindowWithoutBounds() {
		EntityExchangeResult<byte[]> started = post(runs, "/admin/api/replay/runs",
				"{\"choices\": [{\"profile\": \"llm-d\"}]}");

		assertThat(started.getStatus().value()).isEqualTo(202);
		assertThat(runs.started.get(0).fromMs()).isNull();
		assertThat(runs.started.get(0).toMs()).isNull();
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
			not JSON                  | {"choices": [                                                          | not JSON
			no choices                | {"choices": []}                                                        | one to 4 profiles
			five choices              | {"choices": [{"profile": "llm-d"}, {"profile": "round-robin"}, {"profile": "llm-d", "weights": {"queue": 1}}, {"profile": "llm-d", "weights": {"queue": 3}}, {"profile": "llm-d", "weights": {"queue": 4}}]} | at most 4 choices can be compared, got 5
			an unknown profile        | {"choices": [{"profile": "fastest"}]}                                  | choice 1: unknown profile 'fastest'; the profiles: [llm-d, round-robin]
			a profile not named       | {"choices": [{"weights": {"queue": 1}}]}                               | choice 1: 'profile' must name a profile
			an unknown scorer         | {"choices": [{"profile": "llm-d"}, {"profile": "llm-d", "weights": {"lora": 2}}]} | choice 2: profile 'llm-d' has no scorer 'lora'
			a negative weight         | {"choices": [{"profile": "llm-d", "weights": {"queue": -1}}]}          | choice 1: weight of scorer 'queue' must be a finite number >= 0, got -1.0
			a weight in words         | {"choices": [{"profile": "llm-d", "weights": {"queue": "high"}}]}      | choice 1: weight of 'queue' must be a number
			weights not an object     | {"choices": [{"profile": "llm-d", "weights": [1, 2]}]}                 | choice 1: 'weights' must be an object
			a choice given twice      | {"choices": [{"profile": "llm-d"}, {"profile": "llm-d", "weights": {"queue": 2}}]} | choice 2 repeats choice 1 (llm-d)
			a window ending first     | {"fromMs": 1796583845123, "toMs": 1796583845000, "choices": [{"profile": "llm-d"}]} | the window is empty: fromMs 2026-12-06T19:04:05.123Z is not before toMs 2026-12-06T19:04:05Z
			a window in words         | {"fromMs": "yesterday", "choices": [{"profile": "llm-d"}]}             | 'fromMs' must be an instant in epoch milliseconds
			a window before the capture | {"fromMs": 1000, "toMs": 2000, "choices": [{"profile": "llm-d"}]}    | no captured request arrived in the window; the capture's routed requests arrived from 2026-12-06T10:00:00Z to 2026-12-06T11:00:00Z
			""")
	void refusesABadRequestWith400NamingWhatIsWrongAndStartsNothing(String what, String body, String message) {
		EntityExchangeResult<byte[]> refused = post(runs, "/admin/api/replay/runs", body);

		assertThat(refused.getStatus().value()).isEqualTo(400);
		JsonNode error = body(refused).path("error");
		assertThat(error.path("type").asString()).isEqualTo("invalid_request_error");
		assertThat(error.path("message").asString()).contains(message);
		assertThat(runs.started).isEmpty();
	}

	@Test
	void aSecondRunWhileOneRunsIsAConflict() {
		runs.busy = true;

		EntityExchangeResult<byte[]> refused = post(runs, "/admin/api/replay/runs",
				"{\"choices\": [{\"profile\": \"llm-d\"}]}");

		assertThat(refused.getStatus().value()).isEqualTo(409);
		assertThat(body(refused).path("error").path("message").asString()).isEqualTo("run #7 is replaying");
	}

	@Test
	void startingOrCancellingARunNeedsTheDashboardsHeader() {
		WebTestClient client = client(runs);

		client.post().uri("/admin/api/replay/runs").contentType(MediaType.APPLICATION_JSON)
			.bodyValue("{\"choices\": [{\"profile\": \"llm-d\"}]}").exchange().expectStatus().isForbidden();
		client.post().uri("/admin/api/replay/runs/1/cancel").exchange().expectStatus().isForbidden();
		assertThat(runs.started).isEmpty();
	}

	@Test
	void withoutTheCaptureEveryResourceSaysHowToTurnItOn() {
		WebTestClient client = client(null);

		for (String path : List.of("/admin/api/replay/captures", "/admin/api/replay/runs", "/admin/api/replay/runs/1")) {
			JsonNode error = json.read(client.get().uri(path).exchange().expectStatus().isNotFound()
				.expectBody().returnResult().getResponseBody()).path("error");
			assertThat(error.path("message").asString()).contains("infergate.capture.enabled=true");
		}
		assertThat(post(null, "/admin/api/replay/runs", "{\"choices\": [{\"profile\": \"llm-d\"}]}").getStatus()
			.value()).isEqualTo(404);
	}

	@Test
	void listsTheCaptureFilesWithTheLimits() {
		JsonNode captures = json.read(client(runs).get().uri("/admin/api/replay/captures").exchange()
			.expectStatus().isOk().expectBody().returnResult().getResponseBody());

		assertThat(captures.path("maxRequests").asInt()).isEqualTo(1000);
		assertThat(captures.path("maxChoices").asInt()).isEqualTo(4);
		assertThat(captures.path("captures").get(0).path("name").asString()).isEqualTo("capture-20261206T100000Z-1.jsonl.gz");
		assertThat(captures.path("captures").get(0).path("routedRecords").asLong()).isEqualTo(40);
	}

	@Test
	void aFinishedRunNamesTheChoiceWithTheLowestTtftP90AmongThoseThatLostFewestRequests() {
		post(runs, "/admin/api/replay/runs", "{\"choices\": [{\"profile\": \"llm-d\"}, {\"profile\": \"round-robin\"},"
				+ " {\"profile\": \"llm-d\", \"weights\": {\"kv-cache\": 0.5}}]}");
		runs.finish(1, List.of(figures(80, 0), figures(40, 3), figures(60, 0)));

		JsonNode run = json.read(client(runs).get().uri("/admin/api/replay/runs/1").exchange()
			.expectStatus().isOk().expectBody().returnResult().getResponseBody());

		assertThat(run.path("state").asString()).isEqualTo("done");
		assertThat(run.path("winner").asInt()).as("round-robin failed 3 requests").isEqualTo(2);
		assertThat(run.path("choices").get(2).path("winner").asBoolean()).isTrue();
		assertThat(run.path("choices").get(0).path("winner").asBoolean()).isFalse();
		assertThat(run.path("choices").get(2).path("figures").path("ttftP90Ms").asDouble()).isEqualTo(60);
		assertThat(run.path("choices").get(2).path("yaml").asString()).isEqualTo("""
				infergate:
				  scheduling:
				    profiles:
				      llm-d:
				        filters: [circuit-breaker]
				        scorers:
				          queue: 2
				          kv-cache: 0.5
				        picker: max-score
				""");
	}

	@Test
	void theWinnersYamlBindsBackToTheProfileWithItsWeights() throws Exception {
		post(runs, "/admin/api/replay/runs", "{\"choices\": [{\"profile\": \"llm-d\", \"weights\": {\"queue\": 0.25}}]}");
		runs.finish(1, List.of(figures(50, 0)));
		String yaml = json.read(client(runs).get().uri("/admin/api/replay/runs/1").exchange().expectBody().returnResult()
			.getResponseBody()).path("choices").get(0).path("yaml").asString();

		StandardEnvironment environment = new StandardEnvironment();
		new YamlPropertySourceLoader().load("winner", new ByteArrayResource(yaml.getBytes(StandardCharsets.UTF_8)))
			.forEach(environment.getPropertySources()::addFirst);
		SchedulingProperties bound = Binder.get(environment).bind("infergate.scheduling", SchedulingProperties.class)
			.get();

		SchedulingProperties.Profile profile = bound.profiles().get("llm-d");
		assertThat(profile.filters()).containsExactly("circuit-breaker");
		assertThat(profile.scorers()).containsExactly(Map.entry("queue", 0.25), Map.entry("kv-cache", 2.0));
		assertThat(profile.picker()).isEqualTo("max-score");
	}

	@Test
	void cancellingAnUnknownRunIs404() {
		EntityExchangeResult<byte[]> result = post(runs, "/admin/api/replay/runs/9/cancel", "");

		assertThat(result.getStatus().value()).isEqualTo(404);
	}

	private static ReplayRuns.Figures figures(double ttftP90Ms, long failed) {
		return new ReplayRuns.Figures(ttftP90Ms / 2, ttftP90Ms, ttftP90Ms * 2, 10, 1000, 0.5, failed, 0);
	}

	private static SchedulingProfiles profiles() {
		Map<String, Double> weights = new LinkedHashMap<>();
		weights.put("queue", 2.0);
		weights.put("kv-cache", 2.0);
		Map<String, SchedulingProperties.Profile> profiles = new LinkedHashMap<>();
		profiles.put("llm-d", new SchedulingProperties.Profile(List.of("circuit-breaker"), weights, "max-score", null));
		profiles.put("round-robin", new SchedulingProperties.Profile(List.of(), Map.of(), "max-score", null));
		return new SchedulingProfiles(new SchedulingProperties("llm-d", profiles, Map.of()), List.of(),
				List.of(MetricScorer.predefined(MetricScorer.QUEUE), MetricScorer.predefined(MetricScorer.KV_CACHE),
						new MaxScorePicker(), new InFlightLoad(), new CircuitBreakerFilter(null)));
	}

	/** Keeps what it is asked to start; one capture file of 40 routed requests from 10:00 to 11:00. */
	private static final class StandInRuns implements ReplayRuns {

		final List<RunRequest> started = new ArrayList<>();

		final List<ReplayRun> kept = new ArrayList<>();

		boolean busy;

		@Override
		public List<CaptureFile> captures() {
			return List.of(new CaptureFile("capture-20261206T100000Z-1.jsonl.gz", 4096, 42, 40, CAPTURED_FROM_MS,
					CAPTURED_TO_MS, true, null));
		}

		@Override
		public int maxRequests() {
			return 1000;
		}

		@Override
		public ReplayRun start(RunRequest request) {
			if (busy) {
				throw new IllegalStateException("run #7 is replaying");
			}
			started.add(request);
			ReplayRun run = new ReplayRun(kept.size() + 1, request, State.READING, Instant.now(), null, null, 0, 0,
					List.of(), null);
			kept.add(run);
			return run;
		}

		void finish(long id, List<Figures> figures) {
			ReplayRun run = run(id);
			kept.set((int) id - 1, new ReplayRun(id, run.request(), State.DONE, run.startedAt(), Instant.now(),
					"trace: 40 routed requests", 120, 120, figures, null));
		}

		@Override
		public ReplayRun run(long id) {
			return (id >= 1 && id <= kept.size()) ? kept.get((int) id - 1) : null;
		}

		@Override
		public List<ReplayRun> runs() {
			List<ReplayRun> newestFirst = new ArrayList<>(kept);
			Collections.reverse(newestFirst);
			return newestFirst;
		}

		@Override
		public ReplayRun cancel(long id) {
			if (run(id) == null) {
				throw new NoSuchElementException("no run #" + id);
			}
			return run(id);
		}
	}
}
