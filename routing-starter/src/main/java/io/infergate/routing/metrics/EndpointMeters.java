package io.infergate.routing.metrics;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointMetrics;
import io.infergate.routing.endpoint.EndpointSnapshot;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

/**
 * The meters of one scraped endpoint, all tagged {@code pool} and {@code endpoint} ({@code host:port}), and
 * removed together when the endpoint stops being scraped. Gauges read the endpoint's latest snapshot, NaN before
 * the first. Used under the lock of the endpoint's scraper.
 */
final class EndpointMeters {

	static final String SCRAPE_DURATION = "infergate.scrape.duration";

	static final String SCRAPE_ERRORS = "infergate.scrape.errors";

	static final String WAITING_REQUESTS = "infergate.endpoint.waiting.requests";

	static final String RUNNING_REQUESTS = "infergate.endpoint.running.requests";

	static final String KV_CACHE_USAGE = "infergate.endpoint.kv.cache.usage";

	private final MeterRegistry registry;

	private final Tags tags;

	private final Timer duration;

	private final Map<ScrapeFailure, Counter> errors = new EnumMap<>(ScrapeFailure.class);

	private final List<Meter> meters = new ArrayList<>();

	EndpointMeters(MeterRegistry registry, Endpoint endpoint) {
		this.registry = registry;
		this.tags = Tags.of("pool", endpoint.pool(), "endpoint", endpoint.id().toString());
		this.duration = register(Timer.builder(SCRAPE_DURATION)
			.description("Time to fetch, parse and map one endpoint's metrics exposition")
			.tags(tags)
			.register(registry));
		gauge(endpoint, WAITING_REQUESTS, "Requests queued in the engine, as last scraped", "requests",
				EndpointMetrics::waitingRequests);
		gauge(endpoint, RUNNING_REQUESTS, "Requests in the engine's running batch, as last scraped", "requests",
				EndpointMetrics::runningRequests);
		gauge(endpoint, KV_CACHE_USAGE, "Fraction of KV-cache blocks in use, 0..1, as last scraped", null,
				EndpointMetrics::kvCacheUsage);
	}

	Timer duration() {
		return duration;
	}

	/** The error counter of a reason, registered on first use so quiet endpoints export no zero series. */
	Counter errors(ScrapeFailure reason) {
		return errors.computeIfAbsent(reason, (key) -> register(Counter.builder(SCRAPE_ERRORS)
			.description("Failed scrapes of an endpoint's metrics, by reason")
			.tags(tags)
			.tag("reason", key.tag())
			.register(registry)));
	}

	void remove() {
		meters.forEach(registry::remove);
		meters.clear();
	}

	private void gauge(Endpoint endpoint, String name, String description, String baseUnit,
			ToDoubleFunction<EndpointMetrics> figure) {
		register(Gauge.builder(name, endpoint, (scraped) -> {
			EndpointSnapshot snapshot = scraped.snapshot();
			return (snapshot != null) ? figure.applyAsDouble(snapshot.metrics()) : Double.NaN;
		}).description(description).baseUnit(baseUnit).tags(tags).strongReference(true).register(registry));
	}

	private <M extends Meter> M register(M meter) {
		meters.add(meter);
		return meter;
	}
}
