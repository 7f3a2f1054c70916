package io.infergate.routing.metrics;

import java.util.LinkedHashMap;
import java.util.Map;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.pool.EndpointLifecycleListener;
import io.infergate.routing.pool.EndpointPool;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.PoolProperties;

/**
 * Scrapes every endpoint of every pool for as long as discovery lists it: tracks an endpoint when the registry
 * adds it, untracks it when the registry removes it. Each pool's {@link ScrapeSettings} are built, and so
 * validated, once at startup.
 */
public final class EndpointScraping implements EndpointLifecycleListener {

	private final MetricsScrapers scrapers;

	private final Map<String, ScrapeSettings> settingsByPool = new LinkedHashMap<>();

	public EndpointScraping(EndpointRegistry registry, MetricsScrapers scrapers) {
		this.scrapers = scrapers;
		for (EndpointPool pool : registry.pools()) {
			settingsByPool.put(pool.name(), settings(pool.name(), pool.settings()));
		}
		registry.addListener(this);
	}

	static ScrapeSettings settings(String pool, PoolProperties.Pool properties) {
		PoolProperties.Scrape scrape = properties.getScrape();
		try {
			EngineMapping mapping = EngineMapping.forEngine(properties.getEngine().configName())
				.withOverrides(scrape.getMetricOverrides());
			long intervalMillis = scrape.getInterval().toMillis();
			ScrapeSettings settings = ScrapeSettings.defaults(mapping)
				.withIntervalMillis(intervalMillis)
				.withTimeoutMillis(scrape.getTimeout().toMillis())
				.withFailureThreshold(scrape.getUnreadyAfterFailures())
				.withMaxBackoffMillis(Math.max(ScrapeSettings.DEFAULT_MAX_BACKOFF_MILLIS, intervalMillis))
				.withKvCacheDefaults(scrape.getDefaultBlockSize(), scrape.getDefaultNumGpuBlocks());
			if (scrape.getMetricsPath() != null) {
				settings = settings.withMetricsPath(scrape.getMetricsPath());
			}
			if (scrape.getMetricsPort() != null) {
				settings = settings.withMetricsPort(scrape.getMetricsPort());
			}
			return settings;
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("infergate.pools." + pool + ".scrape: " + ex.getMessage(), ex);
		}
	}

	/** The settings scrapers of {@code pool} use. */
	public ScrapeSettings settings(String pool) {
		return settingsByPool.get(pool);
	}

	@Override
	public void endpointAdded(EndpointPool pool, Endpoint endpoint) {
		scrapers.track(endpoint, settingsByPool.get(pool.name()));
	}

	@Override
	public void endpointRemoved(EndpointPool pool, Endpoint endpoint) {
		scrapers.untrack(pool.name(), endpoint.id());
	}
}
