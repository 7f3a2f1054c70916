package io.infergate.routing.endpoint;

/**
 * An immutable reading of one replica's metrics and the wall-clock time it was scraped. Scrapers publish a new
 * snapshot; readers take the latest one without locks.
 */
public record EndpointSnapshot(EndpointMetrics metrics, long scrapedAtMillis) {

	/** Milliseconds since the scrape, never negative. */
	public long ageMillis(long nowMillis) {
		return Math.max(0, nowMillis - scrapedAtMillis);
	}

	public boolean isStale(long nowMillis, long stalenessThresholdMillis) {
		return ageMillis(nowMillis) > stalenessThresholdMillis;
	}
}
