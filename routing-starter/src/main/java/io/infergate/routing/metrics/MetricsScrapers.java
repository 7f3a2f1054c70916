package io.infergate.routing.metrics;

import java.time.InstantSource;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLException;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.util.concurrent.DefaultThreadFactory;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointId;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Scrapes the metrics of every tracked endpoint and publishes them as {@link io.infergate.routing.endpoint.EndpointSnapshot}s;
 * see {@link EndpointScraper} for the cadence and readiness rules of each.
 * <p>
 * All endpoints share one Netty event loop, a daemon thread ({@value #THREAD_NAME}) that starts the scrapes, reads
 * the responses over one keep-alive HTTP/1.1 connection per endpoint ({@link ScrapeConnection}) and parses them:
 * one thread, no hand-offs, and no allocation per scrape beyond Netty's pooled buffers and the parse's own.
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
 * Thread-safe. Plain Java, so the application context and the benchmarks can both own one.
 */
public final class MetricsScrapers implements AutoCloseable {

	static final String THREAD_NAME = "infergate-scrape";

	private final MeterRegistry registry;

	private final InstantSource clock;

	private final EventLoopGroup group;

	private final Bootstrap bootstrap;

	private final SslContext ssl;

	private final ConcurrentMap<Key, EndpointScraper> scrapers = new ConcurrentHashMap<>();

	private final String transport;

	/** Guarded by this, as are changes to {@link #scrapers}; reads of it take no lock. */
	private boolean closed;

	/** Scrapers stamping snapshots with the system clock. */
	public MetricsScrapers(MeterRegistry registry) {
		this(registry, InstantSource.system());
	}

	/** Scrapers stamping snapshots with {@code clock}, the clock their readers compute ages with. */
	public MetricsScrapers(MeterRegistry registry, InstantSource clock) {
		this(registry, clock, true);
	}

	/**
	 * Scrapers on the native epoll transport where it loads (Linux) and {@code nativeTransport} is true, on NIO
	 * otherwise. Epoll spends less CPU per scrape ({@code bench/}'s {@code ScraperCpuCost} weighs both).
	 */
	public MetricsScrapers(MeterRegistry registry, InstantSource clock, boolean nativeTransport) {
		this.registry = Objects.requireNonNull(registry, "registry");
		this.clock = Objects.requireNonNull(clock, "clock");
		boolean epoll = nativeTransport && Epoll.isAvailable();
		this.transport = epoll ? "epoll" : "nio";
		this.group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory(THREAD_NAME, true),
				epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
		this.bootstrap = new Bootstrap().group(group)
			.channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
			.option(ChannelOption.TCP_NODELAY, true)
			// an exposition is tens of KB, sent at once: read it in one or two reads
			.option(ChannelOption.RCVBUF_ALLOCATOR, new AdaptiveRecvByteBufAllocator(4096, 65536, 262144));
		try {
			this.ssl = SslContextBuilder.forClient().build();
		}
		catch (SSLException ex) {
			throw new IllegalStateException("no TLS client context for https scrapes", ex);
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
		ScrapeConnection connection = new ScrapeConnection(bootstrap,
				EndpointScraper.metricsUri(endpoint.baseUri(), settings), (int) Math.min(Integer.MAX_VALUE, settings.timeoutMillis()), ssl);
		EventLoop loop = connection.eventLoop();
		EndpointScraper scraper = new EndpointScraper(endpoint, settings, connection, loop, clock,
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

	/** {@code epoll} or {@code nio}. */
	public String transport() {
		return transport;
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
		try {
			group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(1, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private record Key(String pool, EndpointId id) {
	}
}
