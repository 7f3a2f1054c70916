package io.infergate.routing.spend;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * What happens when a budget is reached (once per budget and window, on the replica that settled the request that
 * reached it): a warning in the log, {@code infergate.budget.reached} (tags {@code scope}, {@code subject},
 * {@code period}, {@code mode}), and, when {@code infergate.usage.budget-webhook.url} is set, a JSON {@code POST} to
 * it, tried again after 1 s, 2 s, 4 s... up to {@code attempts} times while it fails (a connection error, a timeout,
 * or a status other than 2xx). Nothing here runs on a request's path: the webhook is sent on the HTTP client's own
 * threads.
 */
public final class BudgetAlerts implements BudgetListener {

	private static final Log logger = LogFactory.getLog(BudgetAlerts.class);

	private final MeterRegistry registry;

	private final String currency;

	private final UsageProperties.Webhook webhook;

	private final Clock clock;

	private final HttpClient http;

	private final ConcurrentHashMap<String, Counter> counters = new ConcurrentHashMap<>();

	public BudgetAlerts(MeterRegistry registry, String currency, UsageProperties.Webhook webhook, Clock clock) {
		this.registry = registry;
		this.currency = currency;
		this.webhook = webhook;
		this.clock = clock;
		this.http = (webhook != null && webhook.url() != null)
				? HttpClient.newBuilder().connectTimeout(webhook.timeout()).build() : null;
	}

	@Override
	public void reached(BudgetLine line, BudgetPeriod.Window window, long spentNanos) {
		Budget budget = line.budget();
		logger.warn(String.format(Locale.ROOT,
				"Budget of %s %s per %s for %s reached: %s %s spent in %s (%s budget: %s)", amount(budget.amount()),
				currency, budget.period().configName(), line.describe(), amount(Budget.toUnits(spentNanos)), currency,
				window.id(), budget.mode().configName(),
				budget.hard() ? "requests that may cost more are refused" + resets(window)
						: "requests go on, this is a warning"));
		counters.computeIfAbsent(line.counterKey(), (key) -> Counter.builder("infergate.budget.reached")
			.description("Budgets reached, once per budget and period window")
			.tags("scope", line.scope().label(), "subject", line.subject(), "period", budget.period().configName(),
					"mode", budget.mode().configName())
			.register(registry)).increment();
		if (http != null) {
			post(payload(line, window, spentNanos), 1);
		}
	}

	private static String resets(BudgetPeriod.Window window) {
		return (window.end() != null) ? " until " + window.end() : " until older spend leaves the last 24 hours";
	}

	private String payload(BudgetLine line, BudgetPeriod.Window window, long spentNanos) {
		Budget budget = line.budget();
		return "{\"event\":\"budget-reached\",\"time\":\"" + clock.instant() + "\",\"scope\":\"" + json(line.scope().label())
				+ "\",\"subject\":\"" + json(line.subject()) + "\",\"period\":\"" + budget.period().configName()
				+ "\",\"mode\":\"" + budget.mode().configName() + "\",\"amount\":" + amount(budget.amount())
				+ ",\"spent\":" + amount(Budget.toUnits(spentNanos)) + ",\"currency\":\"" + json(currency)
				+ "\",\"window\":\"" + json(window.id()) + "\",\"windowStart\":"
				+ ((window.end() != null) ? "\"" + window.start() + "\"" : "null") + ",\"windowEnd\":"
				+ ((window.end() != null) ? "\"" + window.end() + "\"" : "null") + "}";
	}

	private void post(String body, int attempt) {
		HttpRequest request = HttpRequest.newBuilder(webhook.url())
			.timeout(webhook.timeout())
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build();
		http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, ex) -> {
			if (ex == null && response.statusCode() / 100 == 2) {
				return;
			}
			String failure = (ex != null) ? ex.toString() : "status " + response.statusCode();
			if (attempt >= webhook.attempts()) {
				logger.warn("The budget webhook " + redacted(webhook.url()) + " failed " + attempt
						+ " times; the last: " + failure + ". The event is dropped: " + body);
				return;
			}
			long delayMillis = webhook.firstRetry().toMillis() << Math.min(attempt - 1, 10);
			logger.debug("The budget webhook failed (" + failure + "), trying again in " + delayMillis + " ms");
			Executor later = CompletableFuture.delayedExecutor(delayMillis, TimeUnit.MILLISECONDS);
			later.execute(() -> post(body, attempt + 1));
		});
	}

	private static String redacted(URI url) {
		return url.getScheme() + "://" + url.getHost() + ((url.getPort() > 0) ? ":" + url.getPort() : "")
				+ url.getPath();
	}

	private static String amount(double value) {
		return java.math.BigDecimal.valueOf(value).setScale(6, java.math.RoundingMode.HALF_UP).stripTrailingZeros()
			.toPlainString();
	}

	private static String json(String value) {
		StringBuilder out = new StringBuilder(value.length());
		for (char c : value.toCharArray()) {
			if (c == '"' || c == '\\') {
				out.append('\\').append(c);
			}
			else if (c < 0x20) {
				out.append(String.format("\\u%04x", (int) c));
			}
			else {
				out.append(c);
			}
		}
		return out.toString();
	}
}
