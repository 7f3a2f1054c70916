package io.infergate.routing.metrics;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.pool.EndpointLifecycleListener;
import io.infergate.routing.pool.EndpointPool;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.PoolProperties;

/**
 * Scrapes every endpoint of every pool for as long as discovery lists it: tracks an endpoint when the registry
 * adds it, untracks it when the registry removes it. Each pool's {@link ScrapeSettings} are built, and so
 * validated, once: at startup, or when a configuration reload adds the pool (the reload checks them first with
 * {@link #problems}).
 */
public final class EndpointScraping implements EndpointLifecycleListener {

	private final MetricsScrapers scrapers;

	private final Map<String, ScrapeSettings> settingsByPool = new ConcurrentHashMap<>();

	public EndpointScraping(EndpointRegistry registry, MetricsScrapers scrapers) {
		this.scrapers = scrapers;
		for (EndpointPool pool : registry.pools()) {
			settingsByPool.put(pool.name(), settings(pool.name(), pool.settings()));
		}
		registry.addListener(this);
	}

	static ScrapeSettings settings(String pool, PoolProperties.Pool properties) {
		PoolProperties.Scrape scrape = properties.scrape();
		try {
			EngineMapping mapping = EngineMapping.forEngine(properties.engine().configName())
				.withOverrides(scrape.metricOverrides());
			long intervalMillis = scrape.interval().toMillis();
			ScrapeSettings settings = ScrapeSettings.defaults(mapping)
				.withIntervalMillis(intervalMillis)
				.withTimeoutMillis(scrape.timeout().toMillis())
				.withFailureThreshold(scrape.unreadyAfterFailures())
				.withMaxBackoffMillis(Math.max(ScrapeSettings.DEFAULT_MAX_BACKOFF_MILLIS, intervalMillis))
				.withKvCacheDefaults(scrape.defaultBlockSize(), scrape.defaultNumGpuBlocks());
			if (scrape.metricsPath() != null) {
				settings = settings.withMetricsPath(scrape.metricsPath());
			}
			if (scrape.metricsPort() != null) {
				settings = settings.withMetricsPort(scrape.metricsPort());
			}
			return settings;
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("infergate.pools." + pool + ".scrape: " + ex.getMessage(), ex);
		}
	}

	/** What is wrong with a pool's scrape settings: empty, or the one problem. */
	public static List<String> problems(String pool, PoolProperties.Pool properties) {
		try {
			settings(pool, properties);
			return List.of();
		}
		catch (IllegalArgumentException ex) {
			return List.of(ex.getMessage());
		}
	}

	/** The settings scrapers of {@code pool} use. */
	public ScrapeSettings settings(String pool) {
		return settingsByPool.get(pool);
	}

	@Override
	public void endpointAdded(EndpointPool pool, Endpoint endpoint) {
		scrapers.track(endpoint,
				settingsByPool.computeIfAbsent(pool.name(), (name) -> settings(name, pool.settings())));
	}

	@Override
	public void endpointRemoved(EndpointPool pool, Endpoint endpoint) {
		scrapers.untrack(pool.name(), endpoint.id());
	}

	@Override
	public void poolRemoved(EndpointPool pool) {
		settingsByPool.remove(pool.name());
	}
}
