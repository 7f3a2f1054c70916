package io.infergate.routing.endpoint;

/**
 * An immutable reading of one replica's metrics and the wall-clock time it was scraped. Scrapers publish a new
 * snapshot; readers take the latest one without locks.
 *
 * @param metrics the engine's figures
 * @param scrapedAtMillis when the scrape ended
 * @param inFlightRequestsAtScrape this gateway's {@link Endpoint#inFlightRequests()} when the scrape was sent, so a
 * reader can tell what this gateway changed since the engine counted its requests
 */
public record EndpointSnapshot(EndpointMetrics metrics, long scrapedAtMillis, int inFlightRequestsAtScrape) {

	/** Milliseconds since the scrape, never negative. */
	public long ageMillis(long nowMillis) {
		return Math.max(0, nowMillis - scrapedAtMillis);
	}

	public boolean isStale(long nowMillis, long stalenessThresholdMillis) {
		return ageMillis(nowMillis) > stalenessThresholdMillis;
	}
}
