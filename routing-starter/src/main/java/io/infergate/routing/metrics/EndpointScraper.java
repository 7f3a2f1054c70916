package io.infergate.routing.metrics;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.InstantSource;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointMetrics;
import io.infergate.routing.endpoint.EndpointSnapshot;

/**
 * Polls one endpoint's exposition and publishes what it maps to.
 * <p>
 * Cadence: the first scrape starts after a random fraction of the interval, so endpoints tracked together do not
 * scrape in lockstep. After a success the next scrape starts one interval after this one started (at once if this
 * one took longer); after a failure it waits {@link ScrapeSettings#backoffMillis}. The next scrape is scheduled
 * only when the current one has finished, so at most one is in flight per endpoint, and a scrape still running
 * after the timeout is cancelled.
 * <p>
 * Readiness: not ready from {@link #start()} until the first success; not ready again once
 * {@link ScrapeSettings#failureThreshold()} scrapes in a row have failed; ready on the next success. A failure
 * publishes nothing, so the last snapshot ages and readers see it as stale.
 * <p>
 * Nothing here runs on the request path: scrapes are started, read and parsed on the scrape client's event loop,
 * which is also the timer.
 */
final class EndpointScraper {

	private static final Log logger = LogFactory.getLog(EndpointScraper.class);

	private static final int INITIAL_BUFFER_BYTES = 64 * 1024;

	private final Endpoint endpoint;

	private final ScrapeSettings settings;

	private final ScrapeConnection connection;

	private final ScheduledExecutorService timer;

	private final InstantSource clock;

	private final EndpointMeters meters;

	/** Guarded by this, as is every mutable field but {@link #status}. */
	private boolean stopped;

	/** The pending start of the next attempt. */
	private Future<?> nextScrape;

	/** The latest attempt's number, whether it is in flight, and its timeout. */
	private long attempts;

	private boolean scraping;

	private Future<?> watchdog;

	/** The body buffer, lent to the attempt in flight and handed back with its body. */
	private byte[] buffer = new byte[INITIAL_BUFFER_BYTES];

	private volatile ScrapeStatus status = ScrapeStatus.NOT_SCRAPED;

	/**
	 * @param connection the endpoint's connection to {@link #metricsUri}
	 * @param timer the connection's event loop, so scrapes start on the thread that reads them
	 */
	EndpointScraper(Endpoint endpoint, ScrapeSettings settings, ScrapeConnection connection,
			ScheduledExecutorService timer, InstantSource clock, EndpointMeters meters) {
		this.endpoint = endpoint;
		this.settings = settings;
		this.connection = connection;
		this.timer = timer;
		this.clock = clock;
		this.meters = meters;
	}

	static URI metricsUri(URI baseUri, ScrapeSettings settings) {
		int port = (settings.metricsPort() != -1) ? settings.metricsPort() : baseUri.getPort();
		try {
			return new URI(baseUri.getScheme(), null, baseUri.getHost(), port, settings.metricsPath(), null, null);
		}
		catch (URISyntaxException ex) {
			throw new IllegalArgumentException("cannot scrape " + baseUri + ": " + ex.getMessage(), ex);
		}
	}

	Endpoint endpoint() {
		return endpoint;
	}

	ScrapeSettings settings() {
		return settings;
	}

	ScrapeStatus status() {
		return status;
	}

	/** Starts polling; {@code fresh} marks the endpoint not ready until its first success. */
	synchronized void start(boolean fresh) {
		if (fresh) {
			endpoint.setReady(false);
		}
		long jitterMillis = ThreadLocalRandom.current().nextLong(settings.intervalMillis());
		nextScrape = timer.schedule(this::scrape, jitterMillis, TimeUnit.MILLISECONDS);
	}

	/** Stops polling, cancels a scrape in flight and removes the endpoint's meters. Readiness is left as it is. */
	synchronized void stop() {
		stopped = true;
		cancel(nextScrape);
		cancel(watchdog);
		try {
			timer.execute(connection::close);
		}
		catch (RejectedExecutionException ex) {
			// the event loop is shutting down, closing every connection
		}
		meters.remove();
	}

	private synchronized void scrape() {
		if (stopped) {
			return;
		}
		long attempt = ++attempts;
		scraping = true;
		long startNanos = System.nanoTime();
		byte[] lent = (buffer != null) ? buffer : new byte[INITIAL_BUFFER_BYTES];
		buffer = null;
		BiConsumer<ExpositionBody, Throwable> onDone = (body, failure) -> complete(attempt, body, failure, startNanos);
		// bounds the whole attempt: connecting, the headers and the body
		watchdog = timer.schedule(() -> connection.abort(new CancellationException("timed out")),
				settings.timeoutMillis(), TimeUnit.MILLISECONDS);
		try {
			connection.get(lent, settings.maxBodyBytes(), onDone);
		}
		catch (RuntimeException ex) {
			complete(attempt, null, ex, startNanos);
		}
	}

	/** Ends an attempt once. */
	private synchronized void complete(long attempt, ExpositionBody body, Throwable failure, long startNanos) {
		if (stopped || !scraping || attempt != attempts) {
			return;
		}
		scraping = false;
		cancel(watchdog);
		long delayMillis = settings.maxBackoffMillis();
		try {
			delayMillis = record(body, failure, System.nanoTime() - startNanos);
		}
		catch (RuntimeException ex) {
			logger.error("Recording a scrape of " + endpoint + " failed", ex);
		}
		finally {
			// Always schedule the next scrape: an unexpected exception must not stop polling for good.
			nextScrape = timer.schedule(this::scrape, delayMillis, TimeUnit.MILLISECONDS);
		}
	}

	/** Publishes or counts the outcome, updates readiness and status, and returns the delay to the next scrape. */
	private long record(ExpositionBody body, Throwable failure, long elapsedNanos) {
		Throwable error = failure;
		EndpointMetrics metrics = null;
		if (error == null) {
			try {
				metrics = map(body);
			}
			catch (RuntimeException ex) {
				error = ex;
			}
		}
		meters.duration().record(elapsedNanos, TimeUnit.NANOSECONDS);
		long nowMillis = clock.millis();
		ScrapeStatus previous = status;
		if (error == null) {
			endpoint.publish(new EndpointSnapshot(metrics, nowMillis));
			if (!endpoint.isReady()) {
				boolean succeededBefore = previous.scrapeCount() > previous.failureCount();
				if (succeededBefore && logger.isInfoEnabled()) {
					logger.info("Endpoint " + endpoint + " is ready again after " + previous.consecutiveFailures()
							+ " failed scrapes");
				}
				endpoint.setReady(true);
			}
			long delayMillis = Math.max(0, settings.intervalMillis() - TimeUnit.NANOSECONDS.toMillis(elapsedNanos));
			status = new ScrapeStatus(0, null, null, elapsedNanos / 1000, nowMillis, nowMillis, delayMillis,
					previous.scrapeCount() + 1, previous.failureCount());
			return delayMillis;
		}
		ScrapeFailure reason = ScrapeFailure.of(error);
		String message = ScrapeFailure.describe(error);
		meters.errors(reason).increment();
		int failures = previous.consecutiveFailures() + 1;
		if (failures >= settings.failureThreshold() && endpoint.isReady()) {
			logger.warn("Endpoint " + endpoint + " is not ready after " + failures + " failed scrapes: " + message);
			endpoint.setReady(false);
		}
		long delayMillis = settings.backoffMillis(failures);
		status = new ScrapeStatus(failures, message, reason.tag(), elapsedNanos / 1000, nowMillis,
				previous.lastSuccessAtMillis(), delayMillis, previous.scrapeCount() + 1, previous.failureCount() + 1);
		return delayMillis;
	}

	/** Parses and maps a 200 body, taking its buffer back for the next scrape. */
	private EndpointMetrics map(ExpositionBody body) {
		buffer = body.bytes();
		return settings.mapping()
			.map(body.bytes(), body.length(), settings.defaultBlockSize(), settings.defaultNumGpuBlocks());
	}

	private static void cancel(Future<?> future) {
		if (future != null) {
			future.cancel(false);
		}
	}
}
