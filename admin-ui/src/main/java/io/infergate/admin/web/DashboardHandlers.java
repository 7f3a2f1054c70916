package io.infergate.admin.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import reactor.core.publisher.Mono;

import org.springframework.core.io.ClassPathResource;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.reactive.function.BodyInserter;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.util.HtmlUtils;

import io.infergate.admin.snapshot.EndpointHistory;
import io.infergate.admin.snapshot.SnapshotAssembler;
import io.infergate.admin.snapshot.SnapshotFeed;
import io.infergate.admin.whatif.WhatIf;
import io.infergate.routing.pool.EndpointPool;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.scheduling.EndpointFilter;
import io.infergate.routing.scheduling.SchedulingProfile;
import io.infergate.routing.scheduling.config.SchedulingProfiles;

/**
 * The dashboard's page and its JSON and event-stream resources under {@code /admin}. Read-only: nothing here
 * changes the running gateway (runtime changes are {@link RuntimeChangeHandlers}'s).
 */
public final class DashboardHandlers {

	/** Query parameters {@code weight.<scorer>} of a what-if request. */
	static final String WEIGHT_PARAMETER = "weight.";

	private final SnapshotFeed feed;

	private final SnapshotAssembler snapshots;

	private final EndpointHistory history;

	private final WhatIf whatIf;

	private final SchedulingProfiles profiles;

	private final EndpointRegistry registry;

	private final Duration tickInterval;

	private final DashboardJson json;

	private final boolean replay;

	private final String page;

	/**
	 * @param replay whether the Replay view has captured traffic to replay
	 */
	public DashboardHandlers(SnapshotFeed feed, SnapshotAssembler snapshots, EndpointHistory history, WhatIf whatIf,
			SchedulingProfiles profiles, EndpointRegistry registry, Duration tickInterval, DashboardJson json,
			boolean replay) {
		this.feed = feed;
		this.snapshots = snapshots;
		this.history = history;
		this.whatIf = whatIf;
		this.profiles = profiles;
		this.registry = registry;
		this.tickInterval = tickInterval;
		this.json = json;
		this.replay = replay;
		this.page = read("infergate-admin/index.html");
	}

	/** The page itself, at {@code /admin} and {@code /admin/}; its base URL makes every other path relative. */
	public Mono<ServerResponse> page(ServerRequest request) {
		String base = HtmlUtils.htmlEscape(request.requestPath().contextPath().value() + "/admin/");
		return ServerResponse.ok()
			.contentType(new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8))
			.bodyValue(page.replace("{{base}}", base));
	}

	/** The live feed: one {@value SnapshotFeed#EVENT} event per tick. */
	public Mono<ServerResponse> feed(ServerRequest request) {
		BodyInserter<Object, ServerHttpResponse> frames = (response, context) -> response
			.writeAndFlushWith(feed.frames().map((frame) -> Mono.just(response.bufferFactory().wrap(frame))));
		return ServerResponse.ok()
			.contentType(MediaType.TEXT_EVENT_STREAM)
			.header("X-Accel-Buffering", "no")
			.body(frames);
	}

	/** Every kept decision, newest first. */
	public Mono<ServerResponse> decisions(ServerRequest request) {
		return json(snapshots.recentDecisions());
	}

	/** Each endpoint's charts over the last five minutes. */
	public Mono<ServerResponse> history(ServerRequest request) {
		return json(history.view());
	}

	/**
	 * What does not change while the gateway runs: the profiles, which pool uses which, the tick, and whether the
	 * traffic capture is on for the Replay view.
	 */
	public Mono<ServerResponse> config(ServerRequest request) {
		Map<String, ProfileView> byName = new LinkedHashMap<>();
		for (String name : profiles.names()) {
			SchedulingProfile profile = profiles.get(name);
			byName.put(name, new ProfileView(profile.filters().stream().map(EndpointFilter::name).toList(),
					profile.weights(), profile.picker().name(), profile.picker().readsTotals()));
		}
		Map<String, String> poolProfiles = new LinkedHashMap<>();
		for (EndpointPool pool : registry.pools()) {
			poolProfiles.put(pool.name(), profiles.resolve(pool.profileName()).name());
		}
		return json(new ConfigView(byName, poolProfiles, tickInterval.toMillis(), EndpointHistory.SECONDS,
				replay));
	}

	/** Replays the kept decisions of {@code profile} with the weights given as {@code weight.<scorer>=<number>}. */
	public Mono<ServerResponse> whatIf(ServerRequest request) {
		String profile = request.queryParam("profile").orElse(null);
		if (profile == null || profile.isBlank()) {
			return badRequest("the query parameter 'profile' is required");
		}
		Map<String, Double> weights = new LinkedHashMap<>();
		for (Map.Entry<String, List<String>> parameter : request.queryParams().entrySet()) {
			String name = parameter.getKey();
			if (name.startsWith(WEIGHT_PARAMETER)) {
				String value = parameter.getValue().isEmpty() ? "" : parameter.getValue().get(0);
				try {
					weights.put(name.substring(WEIGHT_PARAMETER.length()), Double.parseDouble(value));
				}
				catch (NumberFormatException ex) {
					return badRequest("'" + name + "' must be a number, got '" + value + "'");
				}
			}
		}
		try {
			return json(whatIf.replay(profile, weights));
		}
		catch (IllegalArgumentException ex) {
			return badRequest(ex.getMessage());
		}
	}

	private Mono<ServerResponse> json(Object body) {
		return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(json.writeBytes(body));
	}

	private Mono<ServerResponse> badRequest(String message) {
		return error(json, HttpStatus.BAD_REQUEST, "invalid_request_error", message);
	}

	/** An error as the dashboard's resources answer it: {@code {"error": {"message", "type"}}}. */
	static Mono<ServerResponse> error(DashboardJson json, HttpStatus status, String type, String message) {
		return ServerResponse.status(status)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(json.writeBytes(Map.of("error", Map.of("message", message, "type", type))));
	}

	private static String read(String resource) {
		try (InputStream in = new ClassPathResource(resource).getInputStream()) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("the dashboard's page " + resource + " is missing from the classpath", ex);
		}
	}

	/**
	 * A profile as the page shows it.
	 *
	 * @param filters filter names in order
	 * @param weights scorer weights by scorer name
	 * @param picker the picker's name
	 * @param pickerReadsTotals whether weights can change its picks
	 */
	record ProfileView(List<String> filters, Map<String, Double> weights, String picker, boolean pickerReadsTotals) {
	}

	/**
	 * The page's fixed configuration.
	 *
	 * @param profiles every profile by name
	 * @param poolProfiles each pool's profile
	 * @param tickMillis time between snapshots
	 * @param historySeconds seconds the charts cover
	 * @param replay whether the traffic capture is on, so the Replay view can replay it
	 */
	record ConfigView(Map<String, ProfileView> profiles, Map<String, String> poolProfiles, long tickMillis,
			int historySeconds, boolean replay) {
	}
}
