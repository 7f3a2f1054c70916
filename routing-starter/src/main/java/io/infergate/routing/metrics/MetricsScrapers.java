package io.infergate.routing.metrics;

import java.net.http.HttpClient;
import java.time.InstantSource;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointId;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Scrapes the metrics of every tracked endpoint and publishes them as {@link io.infergate.routing.endpoint.EndpointSnapshot}s;
 * see {@link EndpointScraper} for the cadence and readiness rules of each.
 * <p>
 * All endpoints share one HTTP/1.1 client, whose pool keeps one connection per endpoint alive between scrapes,
 * one timer thread ({@value #TIMER_THREAD_NAME}) that starts scrapes, and {@value #WORKER_THREADS} worker threads
 * ({@value #WORKER_THREAD_PREFIX}N) that read and parse responses. All are daemon threads.
 * <p>
 * Meters, tagged {@code pool} and {@code endpoint} and removed on {@link #untrack}:
 * <ul>
 * <li>{@code infergate.scrape.duration}: timer of each attempt, request to mapped metrics;</li>
 * <li>{@code infergate.scrape.errors}: counter of failed attempts, also tagged {@code reason}: {@code timeout},
 * {@code connect}, {@code http_status}, {@code body_too_large}, {@code missing_metric}, {@code io} or
 * {@code error};</li>
 * <li>{@code infergate.endpoint.waiting.requests}, {@code infergate.endpoint.running.requests},
 * {@code infergate.endpoint.kv.cache.usage}: gauges of the latest snapshot.</li>
 * </ul>
 * The JDK client completes every {@code sendAsync} future through {@code CompletableFuture}'s default executor,
 * which starts a thread per task when the common pool's parallelism is below 2 (machines with 2 CPUs or fewer);
 * the scrapers do their own work on the client's executor, but that hop stays, so such hosts should raise the
 * parallelism to 2 ({@code -Djava.util.concurrent.ForkJoinPool.common.parallelism=2}); a warning says so.
 * <p>
 * Thread-safe. Plain Java, so the application context and the benchmarks can both own one.
 */
public final class MetricsScrapers implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(MetricsScrapers.class);

	static final String TIMER_THREAD_NAME = "infergate-scrape-timer";

	static final String WORKER_THREAD_PREFIX = "infergate-scrape-worker-";

	static final int WORKER_THREADS = 2;

	private final MeterRegistry registry;

	private final InstantSource clock;

	private final ScheduledThreadPoolExecutor timer;

	private final ExecutorService workers;

	private final HttpClient client;

	private final ConcurrentMap<Key, EndpointScraper> scrapers = new ConcurrentHashMap<>();

	/** Guarded by this, as are changes to {@link #scrapers}; reads of it take no lock. */
	private boolean closed;

	/** Scrapers stamping snapshots with the system clock. */
	public MetricsScrapers(MeterRegistry registry) {
		this(registry, InstantSource.system());
	}

	/** Scrapers stamping snapshots with {@code clock}, the clock their readers compute ages with. */
	public MetricsScrapers(MeterRegistry registry, InstantSource clock) {
		this.registry = Objects.requireNonNull(registry, "registry");
		this.clock = Objects.requireNonNull(clock, "clock");
		this.timer = new ScheduledThreadPoolExecutor(1, daemon((number) -> TIMER_THREAD_NAME));
		// Cancelled scrapes and watchdogs leave the queue at once instead of waiting for their time.
		this.timer.setRemoveOnCancelPolicy(true);
		this.workers = Executors.newFixedThreadPool(WORKER_THREADS,
				daemon((number) -> WORKER_THREAD_PREFIX + number));
		this.client = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.followRedirects(HttpClient.Redirect.NEVER)
			.executor(workers)
			.build();
		if (ForkJoinPool.getCommonPoolParallelism() < 2) {
			logger.warn("The common ForkJoinPool has parallelism " + ForkJoinPool.getCommonPoolParallelism()
					+ ", so the JDK HTTP client starts a thread for every scrape it completes; set"
					+ " -Djava.util.concurrent.ForkJoinPool.common.parallelism=2 to avoid it");
		}
	}

	/**
	 * Starts scraping an endpoint. A new endpoint is marked not ready until its first successful scrape. Tracking
	 * an endpoint again with other settings, or as another {@link Endpoint} object, restarts its scraper; the
	 * readiness of the same object carries over, since only how it is scraped changed. Tracking it again with the
	 * same object and settings does nothing.
	 */
	public synchronized void track(Endpoint endpoint, ScrapeSettings settings) {
		Objects.requireNonNull(endpoint, "endpoint");
		Objects.requireNonNull(settings, "settings");
		if (closed) {
			throw new IllegalStateException("scrapers are closed");
		}
		Key key = new Key(endpoint.pool(), endpoint.id());
		EndpointScraper current = scrapers.get(key);
		if (current != null && current.endpoint() == endpoint && current.settings().equals(settings)) {
			return;
		}
		if (current != null) {
			current.stop(); // before the new scraper registers meters under the same name and tags
		}
		EndpointScraper scraper = new EndpointScraper(endpoint, settings, client, timer, clock,
				new EndpointMeters(registry, endpoint));
		scrapers.put(key, scraper);
		scraper.start(current == null || current.endpoint() != endpoint);
	}

	/** Stops scraping an endpoint and removes its meters; false if it was not tracked. */
	public synchronized boolean untrack(String pool, EndpointId id) {
		EndpointScraper scraper = scrapers.remove(new Key(pool, id));
		if (scraper == null) {
			return false;
		}
		scraper.stop();
		return true;
	}

	public boolean isTracked(String pool, EndpointId id) {
		return scrapers.containsKey(new Key(pool, id));
	}

	/** The scrape status of a tracked endpoint after its latest attempt. */
	public Optional<ScrapeStatus> status(String pool, EndpointId id) {
		EndpointScraper scraper = scrapers.get(new Key(pool, id));
		return (scraper != null) ? Optional.of(scraper.status()) : Optional.empty();
	}

	/** Stops every scraper, removes their meters and stops the threads. Endpoints keep their last snapshot. */
	@Override
	public synchronized void close() {
		closed = true;
		scrapers.values().forEach(EndpointScraper::stop);
		scrapers.clear();
		timer.shutdownNow();
		workers.shutdownNow();
		try {
			timer.awaitTermination(1, TimeUnit.SECONDS);
			workers.awaitTermination(1, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static ThreadFactory daemon(IntFunction<String> name) {
		AtomicInteger count = new AtomicInteger();
		return (task) -> {
			Thread thread = new Thread(task, name.apply(count.incrementAndGet()));
			thread.setDaemon(true);
			return thread;
		};
	}

	private record Key(String pool, EndpointId id) {
	}
}
