package io.infergate.admin.web;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import io.infergate.admin.source.UsageSource;

/**
 * {@code GET /admin/api/usage?from=ISO&to=ISO&group-by=tenant,key,model[&interval=hour][&format=csv]}: spend and
 * tokens from the usage ledger, including what this replica has not written yet, as
 * {@code {"currency", "rows": [{"tenant", "key", "model", "requests", "inputTokens", "cachedInputTokens",
 * "outputTokens", "cost"}], "budgets": [...]}} or as CSV (one line per row, a header first). {@code from} defaults
 * to the beginning, {@code to} to now, {@code group-by} to {@code tenant,key,model}; with {@code interval}
 * ({@code minute}, {@code hour}, {@code day}) each row also has its interval's start, {@code time}. A field not grouped
 * by is {@code null}. Answers 400 naming a bad parameter, 503 while the database cannot be read, 404 when the ledger is
 * off. Key ids only, never keys.
 */
public final class UsageHandlers {

	static final String UNAVAILABLE = "The usage ledger is off: infergate.usage.ledger.enabled=false";

	private final UsageSource usage;

	private final DashboardJson json;

	private final Clock clock;

	/** @param usage null when the ledger is off */
	public UsageHandlers(UsageSource usage, DashboardJson json, Clock clock) {
		this.usage = usage;
		this.json = json;
		this.clock = clock;
	}

	public Mono<ServerResponse> usage(ServerRequest request) {
		if (usage == null) {
			return DashboardHandlers.error(json, HttpStatus.NOT_FOUND, "not_found_error", UNAVAILABLE);
		}
		UsageSource.Query query;
		boolean csv;
		try {
			query = query(request);
			csv = format(request);
		}
		catch (IllegalArgumentException ex) {
			return DashboardHandlers.error(json, HttpStatus.BAD_REQUEST, "invalid_request_error", ex.getMessage());
		}
		// JDBC blocks: off the server's event loop
		return Mono.fromCallable(() -> usage.usage(query)).subscribeOn(Schedulers.boundedElastic())
			.flatMap((answer) -> csv ? csv(answer, query) : ServerResponse.ok()
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(json.writeBytes(view(answer, query))))
			.onErrorResume(UsageSource.UnavailableException.class, (ex) -> DashboardHandlers.error(json,
					HttpStatus.SERVICE_UNAVAILABLE, "service_unavailable", ex.getMessage()));
	}

	private UsageSource.Query query(ServerRequest request) {
		Instant from = instant(request, "from", null);
		Instant to = instant(request, "to", clock.instant());
		if (from != null && !from.isBefore(to)) {
			throw new IllegalArgumentException("from must be before to, got from=" + from + " and to=" + to);
		}
		List<String> groupBy = new ArrayList<>();
		String groups = request.queryParam("group-by").orElse("tenant,key,model");
		for (String group : groups.split(",")) {
			String name = group.trim();
			if (name.isEmpty()) {
				continue;
			}
			if (!UsageSource.GROUPS.contains(name)) {
				throw new IllegalArgumentException("group-by: each of tenant, key, model, got '" + echo(name) + "'");
			}
			if (!groupBy.contains(name)) {
				groupBy.add(name);
			}
		}
		String interval = request.queryParam("interval").orElse(null);
		if (interval != null && !UsageSource.INTERVALS.contains(interval)) {
			throw new IllegalArgumentException("interval: one of minute, hour, day, got '" + echo(interval) + "'");
		}
		return new UsageSource.Query(from, to, groupBy, interval);
	}

	private static boolean format(ServerRequest request) {
		String format = request.queryParam("format").orElse("json");
		if (!format.equals("json") && !format.equals("csv")) {
			throw new IllegalArgumentException("format: json or csv, got '" + echo(format) + "'");
		}
		return format.equals("csv");
	}

	private static Instant instant(ServerRequest request, String name, Instant orElse) {
		String value = request.queryParam(name).orElse(null);
		if (value == null || value.isBlank()) {
			return orElse;
		}
		try {
			return Instant.parse(value);
		}
		catch (DateTimeParseException ex) {
			throw new IllegalArgumentException(name + ": an ISO-8601 instant such as 2026-12-01T00:00:00Z, got '"
					+ echo(value) + "'");
		}
	}

	private static String echo(String value) {
		return (value.length() > 64) ? value.substring(0, 64) + "..." : value;
	}

	private static Map<String, Object> view(UsageSource.Usage answer, UsageSource.Query query) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("currency", answer.currency());
		body.put("from", (query.from() != null) ? query.from().toString() : null);
		body.put("to", query.to().toString());
		body.put("groupBy", query.groupBy());
		body.put("interval", query.interval());
		List<Map<String, Object>> rows = new ArrayList<>(answer.rows().size());
		for (UsageSource.Row row : answer.rows()) {
			Map<String, Object> view = new LinkedHashMap<>();
			if (query.interval() != null) {
				view.put("time", row.time());
			}
			view.put("tenant", row.tenant());
			view.put("key", row.key());
			view.put("model", row.model());
			view.put("requests", row.requests());
			view.put("inputTokens", row.inputTokens());
			view.put("cachedInputTokens", row.cachedInputTokens());
			view.put("outputTokens", row.outputTokens());
			view.put("cost", row.cost());
			rows.add(view);
		}
		body.put("rows", rows);
		body.put("budgets", answer.budgets());
		return body;
	}

	private static Mono<ServerResponse> csv(UsageSource.Usage answer, UsageSource.Query query) {
		StringBuilder csv = new StringBuilder();
		if (query.interval() != null) {
			csv.append("time,");
		}
		csv.append("tenant,key,model,requests,input_tokens,cached_input_tokens,output_tokens,cost,currency\r\n");
		for (UsageSource.Row row : answer.rows()) {
			if (query.interval() != null) {
				csv.append(row.time()).append(',');
			}
			csv.append(field(row.tenant())).append(',')
				.append(field(row.key())).append(',')
				.append(field(row.model())).append(',')
				.append(row.requests()).append(',')
				.append(row.inputTokens()).append(',')
				.append(row.cachedInputTokens()).append(',')
				.append(row.outputTokens()).append(',')
				.append(java.math.BigDecimal.valueOf(row.cost()).stripTrailingZeros().toPlainString()).append(',')
				.append(field(answer.currency()))
				.append("\r\n");
		}
		return ServerResponse.ok()
			.contentType(new MediaType("text", "csv", StandardCharsets.UTF_8))
			.header(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"infergate-usage.csv\"")
			.bodyValue(csv.toString());
	}

	/** A CSV field: quoted when it holds a comma, a quote or a line break; a formula's first character defused. */
	static String field(String value) {
		if (value == null) {
			return "";
		}
		String text = (!value.isEmpty() && "=+-@".indexOf(value.charAt(0)) >= 0) ? "'" + value : value;
		if (text.contains(",") || text.contains("\"") || text.contains("\n") || text.contains("\r")) {
			return "\"" + text.replace("\"", "\"\"") + "\"";
		}
		return text;
	}
}
