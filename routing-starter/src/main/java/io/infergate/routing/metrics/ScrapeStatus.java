package io.infergate.routing.metrics;

/**
 * The state of one endpoint's scraping after its latest attempt, for readiness checks and introspection.
 * Immutable; a new one replaces it after every attempt.
 *
 * @param consecutiveFailures failed scrapes since the last success
 * @param lastError why the latest scrape failed, or {@code null} if it succeeded or none ran yet
 * @param lastErrorReason the {@code reason} tag of that failure, or {@code null}
 * @param lastScrapeDurationMicros how long the latest attempt took, request to mapped metrics
 * @param lastAttemptAtMillis when the latest attempt finished (the scrapers' clock), 0 before the first
 * @param lastSuccessAtMillis when the latest successful one finished, 0 before the first
 * @param nextDelayMillis how long the scraper waits before the next attempt: the interval's remainder after a
 * success, the backoff after a failure
 * @param scrapeCount attempts so far
 * @param failureCount failed attempts so far
 */
public record ScrapeStatus(int consecutiveFailures, String lastError, String lastErrorReason,
		long lastScrapeDurationMicros, long lastAttemptAtMillis, long lastSuccessAtMillis, long nextDelayMillis,
		long scrapeCount, long failureCount) {

	static final ScrapeStatus NOT_SCRAPED = new ScrapeStatus(0, null, null, 0, 0, 0, 0, 0, 0);
}
