package io.infergate.admin.web;

import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Function;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import io.infergate.admin.replay.ProfileYaml;
import io.infergate.admin.replay.ReplayRuns;
import io.infergate.admin.replay.ReplayRuns.CaptureFile;
import io.infergate.admin.replay.ReplayRuns.Choice;
import io.infergate.admin.replay.ReplayRuns.Figures;
import io.infergate.admin.replay.ReplayRuns.ReplayRun;
import io.infergate.admin.replay.ReplayRuns.RunRequest;
import io.infergate.admin.replay.ReplayRuns.State;
import io.infergate.routing.scheduling.SchedulingProfile;
import io.infergate.routing.scheduling.config.SchedulingProfiles;

/**
 * The Replay view's resources, under {@code /admin/api/replay}, behind the admin's login like every {@code /admin}
 * path:
 * <ul>
 * <li>{@code GET captures}: {@code {"maxRequests", "maxChoices", "captures": [...]}}, the capture's files with their
 * records and time span;</li>
 * <li>{@code POST runs} with {@code {"fromMs", "toMs", "choices": [{"profile", "weights": {"scorer": number}}]}}:
 * starts a run, 202 with the run; 409 while another runs; 400 naming what is wrong (an empty window or one that holds
 * no captured request, no choice or more than {@value ReplayRuns#MAX_CHOICES}, an unknown profile or scorer, a
 * weight that is not a number &gt;= 0, a choice given twice);</li>
 * <li>{@code GET runs}, {@code GET runs/{id}}: the kept runs, newest first, and one run: its state, progress,
 * each choice's figures, and once done the winner, the choice with the lowest TTFT p90 among those that lost the
 * fewest requests (failed or rejected), with each choice's profile as YAML;</li>
 * <li>{@code POST runs/{id}/cancel}: stops a run.</li>
 * </ul>
 * A choice's weights are the running profile's, with those the request gives in their place. A POST must carry
 * {@value RuntimeChangeHandlers#ORIGIN_HEADER}, as runtime changes must. Without {@link ReplayRuns} (the traffic
 * capture is off) every resource answers 404 saying how to turn it on.
 */
public final class ReplayHandlers {

	static final String UNAVAILABLE = "Replay reads the traffic capture, which is off: start the gateway with "
			+ "infergate.capture.enabled=true (files in infergate.capture.directory, ./captures by default), send "
			+ "traffic, then replay it here";

	private final ReplayRuns runs;

	private final SchedulingProfiles profiles;

	private final DashboardJson json;

	/**
	 * @param runs null when the capture is off
	 */
	public ReplayHandlers(ReplayRuns runs, SchedulingProfiles profiles, DashboardJson json) {
		this.runs = runs;
		this.profiles = profiles;
		this.json = json;
	}

	public Mono<ServerResponse> captures(ServerRequest request) {
		if (runs == null) {
			return unavailable();
		}
		// reading the files' records is blocking I/O: off the server's event loop
		return Mono.fromCallable(runs::captures).subscribeOn(Schedulers.boundedElastic()).flatMap((captures) -> {
			Map<String, Object> body = new LinkedHashMap<>();
			body.put("maxRequests", runs.maxRequests());
			body.put("maxChoices", ReplayRuns.MAX_CHOICES);
			body.put("captures", captures);
			return ok(body);
		});
	}

	public Mono<ServerResponse> start(ServerRequest request) {
		if (runs == null) {
			return unavailable();
		}
		if (request.headers().firstHeader(RuntimeChangeHandlers.ORIGIN_HEADER) == null) {
			return forbidden();
		}
		return request.bodyToMono(byte[].class).defaultIfEmpty(new byte[0]).flatMap((bytes) -> {
			RunRequest run;
			try {
				run = runRequest(json.read(bytes));
			}
			catch (JacksonException ex) {
				return invalid("the body must be {\"fromMs\": <epoch ms>, \"toMs\": <epoch ms>, \"choices\": "
						+ "[{\"profile\": \"<name>\", \"weights\": {\"<scorer>\": <number>}}]}: not JSON");
			}
			catch (IllegalArgumentException ex) {
				return invalid(ex.getMessage());
			}
			return Mono.fromCallable(runs::captures).subscribeOn(Schedulers.boundedElastic()).flatMap((captures) -> {
				String empty = windowWithoutRecords(run, captures);
				if (empty != null) {
					return invalid(empty);
				}
				ReplayRun started;
				try {
					started = runs.start(run);
				}
				catch (IllegalStateException ex) {
					return DashboardHandlers.error(json, HttpStatus.CONFLICT, "conflict_error", ex.getMessage());
				}
				return ServerResponse.accepted()
					.location(URI.create("runs/" + started.id()))
					.contentType(MediaType.APPLICATION_JSON)
					.bodyValue(json.writeBytes(view(started)));
			});
		});
	}

	public Mono<ServerResponse> list(ServerRequest request) {
		if (runs == null) {
			return unavailable();
		}
		return ok(runs.runs().stream().map(this::view).toList());
	}

	public Mono<ServerResponse> get(ServerRequest request) {
		return withRun(request, (id) -> runs.run(id));
	}

	public Mono<ServerResponse> cancel(ServerRequest request) {
		if (runs != null && request.headers().firstHeader(RuntimeChangeHandlers.ORIGIN_HEADER) == null) {
			return forbidden();
		}
		return withRun(request, (id) -> {
			try {
				return runs.cancel(id);
			}
			catch (NoSuchElementException ex) {
				return null;
			}
		});
	}

	private Mono<ServerResponse> withRun(ServerRequest request, Function<Long, ReplayRun> find) {
		if (runs == null) {
			return unavailable();
		}
		String id = request.pathVariable("id");
		ReplayRun run;
		try {
			run = find.apply(Long.parseLong(id));
		}
		catch (NumberFormatException ex) {
			return invalid("a run id is a number, got '" + id + "'");
		}
		if (run == null) {
			return DashboardHandlers.error(json, HttpStatus.NOT_FOUND, "not_found_error", "no run #" + id + " is kept");
		}
		return ok(view(run));
	}

	/** The request in {@code body}; throws IllegalArgumentException naming what is wrong. */
	RunRequest runRequest(JsonNode body) {
		if (!body.isObject()) {
			throw new IllegalArgumentException("the body must be a JSON object with 'choices'");
		}
		Long fromMs = epochMillis(body, "fromMs");
		Long toMs = epochMillis(body, "toMs");
		if (fromMs != null && toMs != null && fromMs >= toMs) {
			throw new IllegalArgumentException("the window is empty: fromMs " + instant(fromMs)
					+ " is not before toMs " + instant(toMs));
		}
		JsonNode choices = body.path("choices");
		if (!choices.isArray() || choices.isEmpty()) {
			throw new IllegalArgumentException("'choices' must list one to " + ReplayRuns.MAX_CHOICES
					+ " profiles to compare, each {\"profile\": \"<name>\", \"weights\": {...}}");
		}
		if (choices.size() > ReplayRuns.MAX_CHOICES) {
			throw new IllegalArgumentException("at most " + ReplayRuns.MAX_CHOICES + " choices can be compared, got "
					+ choices.size());
		}
		List<Choice> parsed = new ArrayList<>();
		for (int i = 0; i < choices.size(); i++) {
			Choice choice = choice(choices.get(i), "choice " + (i + 1) + ": ");
			for (int j = 0; j < parsed.size(); j++) {
				if (parsed.get(j).profile().equals(choice.profile()) && parsed.get(j).weights().equals(choice.weights())) {
					throw new IllegalArgumentException("choice " + (i + 1) + " repeats choice " + (j + 1) + " ("
							+ choice.label() + ")");
				}
			}
			parsed.add(choice);
		}
		return new RunRequest(fromMs, toMs, parsed);
	}

	private Choice choice(JsonNode node, String where) {
		JsonNode name = node.path("profile");
		if (!name.isString() || name.asString().isBlank()) {
			throw new IllegalArgumentException(where + "'profile' must name a profile; the profiles: " + profiles.names());
		}
		String profileName = name.asString();
		if (!profiles.names().contains(profileName)) {
			throw new IllegalArgumentException(where + "unknown profile '" + profileName + "'; the profiles: "
					+ profiles.names());
		}
		Map<String, Double> changes = new LinkedHashMap<>();
		JsonNode weights = node.path("weights");
		if (!weights.isMissingNode() && !weights.isNull()) {
			if (!weights.isObject()) {
				throw new IllegalArgumentException(where + "'weights' must be an object of scorer weights");
			}
			for (Map.Entry<String, JsonNode> weight : weights.properties()) {
				if (!weight.getValue().isNumber()) {
					throw new IllegalArgumentException(where + "weight of '" + weight.getKey() + "' must be a number");
				}
				changes.put(weight.getKey(), weight.getValue().asDouble());
			}
		}
		SchedulingProfile profile = profiles.get(profileName);
		Map<String, Double> complete;
		try {
			complete = profile.weightsWith(changes);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException(where + ex.getMessage());
		}
		return new Choice(label(profileName, profile.weights(), complete), profileName, complete);
	}

	/** The profile's name, with the weights that differ from the running ones. */
	private static String label(String profile, Map<String, Double> running, Map<String, Double> weights) {
		List<String> changed = new ArrayList<>();
		weights.forEach((scorer, weight) -> {
			if (!weight.equals(running.get(scorer))) {
				changed.add(scorer + " " + weightText(weight));
			}
		});
		return changed.isEmpty() ? profile : profile + " (" + String.join(", ", changed) + ")";
	}

	private static String weightText(double weight) {
		return (weight == Math.rint(weight)) ? Long.toString((long) weight) : Double.toString(weight);
	}

	private static Long epochMillis(JsonNode body, String field) {
		JsonNode value = body.path(field);
		if (value.isMissingNode() || value.isNull()) {
			return null;
		}
		if (!value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() < 0) {
			throw new IllegalArgumentException("'" + field + "' must be an instant in epoch milliseconds (an integer "
					+ ">= 0), got " + value);
		}
		return value.asLong();
	}

	/** Why the window holds no captured request, or null when a capture file's span meets it. */
	static String windowWithoutRecords(RunRequest run, List<CaptureFile> captures) {
		long from = (run.fromMs() != null) ? run.fromMs() : Long.MIN_VALUE;
		long to = (run.toMs() != null) ? run.toMs() : Long.MAX_VALUE;
		Long first = null;
		Long last = null;
		for (CaptureFile file : captures) {
			if (file.routedRecords() == 0 || file.firstArrivalMs() == null) {
				continue;
			}
			if (file.firstArrivalMs() < to && file.lastArrivalMs() >= from) {
				return null;
			}
			first = (first == null) ? file.firstArrivalMs() : Math.min(first, file.firstArrivalMs());
			last = (last == null) ? file.lastArrivalMs() : Math.max(last, file.lastArrivalMs());
		}
		if (first == null) {
			return "the capture holds no routed request yet: send traffic to the gateway, then replay it";
		}
		return "no captured request arrived in the window; the capture's routed requests arrived from "
				+ instant(first) + " to " + instant(last);
	}

	private static String instant(long epochMillis) {
		return Instant.ofEpochMilli(epochMillis).toString();
	}

	/** A run as the view shows it: each choice with its figures and its profile's YAML, and the winner once done. */
	RunView view(ReplayRun run) {
		List<Choice> choices = run.request().choices();
		Integer winner = (run.state() == State.DONE) ? winner(run.figures()) : null;
		List<ChoiceView> views = new ArrayList<>();
		for (int i = 0; i < choices.size(); i++) {
			Choice choice = choices.get(i);
			SchedulingProfile profile = profiles.names().contains(choice.profile()) ? profiles.get(choice.profile())
					: null;
			views.add(new ChoiceView(choice.label(), choice.profile(), choice.weights(),
					(i < run.figures().size()) ? run.figures().get(i) : null, winner != null && winner == i,
					(profile != null) ? ProfileYaml.of(profile, choice.weights()) : null));
		}
		return new RunView(run.id(), run.state().name().toLowerCase(Locale.ROOT), run.startedAt(), run.endedAt(),
				run.request().fromMs(), run.request().toMs(), run.trace(), run.requestsDone(), run.requestsTotal(),
				run.error(), views, winner);
	}

	/**
	 * The choice with the lowest TTFT p90 among those that lost the fewest requests (failed or rejected), the first
	 * of equals; null when none completed a request.
	 */
	static Integer winner(List<Figures> figures) {
		long fewestLost = figures.stream().mapToLong((f) -> f.failed() + f.rejected()).min().orElse(0);
		Integer winner = null;
		for (int i = 0; i < figures.size(); i++) {
			Figures f = figures.get(i);
			if (f.failed() + f.rejected() == fewestLost && !Double.isNaN(f.ttftP90Ms())
					&& (winner == null || f.ttftP90Ms() < figures.get(winner).ttftP90Ms())) {
				winner = i;
			}
		}
		return winner;
	}

	private Mono<ServerResponse> ok(Object body) {
		return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(json.writeBytes(body));
	}

	private Mono<ServerResponse> invalid(String message) {
		return DashboardHandlers.error(json, HttpStatus.BAD_REQUEST, "invalid_request_error", message);
	}

	private Mono<ServerResponse> unavailable() {
		return DashboardHandlers.error(json, HttpStatus.NOT_FOUND, "not_found_error", UNAVAILABLE);
	}

	private Mono<ServerResponse> forbidden() {
		return DashboardHandlers.error(json, HttpStatus.FORBIDDEN, "permission_error",
				"starting or stopping a replay must carry the header " + RuntimeChangeHandlers.ORIGIN_HEADER
						+ ", as the dashboard sends it");
	}

	/**
	 * A run as the view shows it.
	 *
	 * @param state {@code reading}, {@code replaying}, {@code done}, {@code failed} or {@code cancelled}
	 * @param winner the index of the winning choice once done, or null
	 */
	record RunView(long id, String state, Instant startedAt, Instant endedAt, Long fromMs, Long toMs, String trace,
			long requestsDone, long requestsTotal, String error, List<ChoiceView> choices, Integer winner) {
	}

	/**
	 * One choice as the view shows it.
	 *
	 * @param weights every scorer's weight replayed
	 * @param figures null until it has been replayed
	 * @param yaml the profile's {@code infergate.scheduling.profiles} block with these weights; null when the running
	 * gateway no longer has the profile
	 */
	record ChoiceView(String label, String profile, Map<String, Double> weights, Figures figures, boolean winner,
			String yaml) {
	}
}
