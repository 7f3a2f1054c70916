package io.infergate.routing.metrics;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointMetrics;
import io.infergate.routing.endpoint.EndpointSnapshot;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The scrapers against real loopback HTTP servers. Waits are generous and conditions are awaited, never timed
 * exactly, so a loaded machine slows these tests down without failing them.
 */
class MetricsScrapersTests {

	private static final Duration PATIENCE = Duration.ofSeconds(20);

	private static final byte[] VLLM_V1 = Expositions.bytes("vllm-v1.prom");

	private static final EndpointMetrics VLLM_V1_METRICS = EngineMapping.forEngine(EngineMapping.VLLM)
		.map(VLLM_V1, VLLM_V1.length, 16, 0);

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final TestClock clock = new TestClock(1_752_052_211_000L);

	private final MetricsScrapers scrapers = new MetricsScrapers(registry, clock);

	private final List<ExpositionServer> servers = new ArrayList<>();

	private final ScrapeSettings settings = ScrapeSettings.defaults(EngineMapping.forEngine(EngineMapping.VLLM))
		.withIntervalMillis(20)
		.withMaxBackoffMillis(100);

	@AfterEach
	void close() {
		scrapers.close();
		servers.forEach(ExpositionServer::close);
	}

	@Test
	void marksANewEndpointReadyAfterItsFirstSuccessfulScrape() {
		ExpositionServer server = server(VLLM_V1);
		server.delay(300); // so the first scrape cannot finish before the assertion below
		Endpoint endpoint = endpoint(server);
		endpoint.setReady(true);

		scrapers.track(endpoint, settings);

		assertThat(endpoint.isReady()).isFalse();
		await().atMost(PATIENCE).until(endpoint::isReady);
		assertThat(endpoint.snapshot().metrics()).isEqualTo(VLLM_V1_METRICS);
		assertThat(status(endpoint).consecutiveFailures()).isZero();
		assertThat(status(endpoint).lastError()).isNull();
		assertThat(status(endpoint).lastScrapeDurationMicros()).isPositive();
	}

	@Test
	void scrapesOnEpollOnLinuxAndOnNioWhenTheNativeTransportIsNotWanted() {
		ExpositionServer server = server(VLLM_V1);
		Endpoint endpoint = endpoint(server);

		try (MetricsScrapers nio = new MetricsScrapers(new SimpleMeterRegistry(), clock, false)) {
			nio.track(endpoint, settings);

			assertThat(nio.transport()).isEqualTo("nio");
			await().atMost(PATIENCE).until(endpoint::isReady);
			assertThat(endpoint.snapshot().metrics()).isEqualTo(VLLM_V1_METRICS);
		}
		if (System.getProperty("os.name").startsWith("Linux")) {
			assertThat(scrapers.transport()).isEqualTo("epoll");
		}
	}

	@Test
	void aSnapshotCarriesTheGatewaysInFlightCountFromWhenTheScrapeWasSent() {
		ExpositionServer server = server(VLLM_V1);
		server.delay(1000); // the first scrape is in flight for a while
		Endpoint endpoint = endpoint(server);
		endpoint.acquire(100);
		endpoint.acquire(100);
		scrapers.track(endpoint, settings.withIntervalMillis(1000).withTimeoutMillis(5000));
		await().atMost(PATIENCE).until(() -> server.requests() >= 1);

		endpoint.release(100); // while the first scrape waits for its answer

		await().atMost(PATIENCE).until(() -> endpoint.snapshot() != null);
		assertThat(endpoint.snapshot().inFlightRequestsAtScrape()).isEqualTo(2);
		assertThat(endpoint.inFlightRequests()).isEqualTo(1);
	}

	@Test
	void marksAnEndpointNotReadyAfterThresholdFailuresAndReadyAgainOnRecovery() {
		ExpositionServer server = server(VLLM_V1);
		Endpoint endpoint = endpoint(server);
		// A slow cadence, so the test can look between the second and third failure.
		scrapers.track(endpoint, settings.withIntervalMillis(150).withMaxBackoffMillis(600).withFailureThreshold(3));
		await().atMost(PATIENCE).until(endpoint::isReady);

		server.failWith(503);

		await().atMost(PATIENCE).until(() -> status(endpoint).consecutiveFailures() == 2);
		assertThat(endpoint.isReady()).as("ready after 2 of 3 failures").isTrue();
		await().atMost(PATIENCE).until(() -> !endpoint.isReady());
		assertThat(status(endpoint).consecutiveFailures()).isGreaterThanOrEqualTo(3);
		assertThat(status(endpoint).lastError()).isEqualTo("HTTP 503");
		assertThat(status(endpoint).lastErrorReason()).isEqualTo("http_status");

		server.serve(VLLM_V1);

		await().atMost(PATIENCE).until(endpoint::isReady);
		assertThat(status(endpoint).consecutiveFailures()).isZero();
	}

	@Test
	void keepsAtMostOneScrapeInFlightWhenTheServerIsSlow() {
		ExpositionServer server = server(VLLM_V1);
		server.delay(250);
		Endpoint endpoint = endpoint(server);

		scrapers.track(endpoint, settings.withIntervalMillis(5).withTimeoutMillis(5000));

		await().atMost(PATIENCE).until(() -> server.requests() >= 4);
		assertThat(server.maxInFlight()).isEqualTo(1);
		assertThat(endpoint.isReady()).isTrue();
	}

	@Test
	void failsAScrapeThatOutlivesItsTimeout() {
		ExpositionServer server = server(VLLM_V1);
		server.delay(3000);
		Endpoint endpoint = endpoint(server);

		scrapers.track(endpoint, settings.withTimeoutMillis(200));

		await().atMost(PATIENCE).until(() -> status(endpoint).failureCount() >= 1);
		assertThat(status(endpoint).lastErrorReason()).isEqualTo("timeout");
		assertThat(status(endpoint).lastScrapeDurationMicros()).isBetween(150_000L, 2_900_000L);
		assertThat(endpoint.isReady()).isFalse();
	}

	@Test
	void backsOffExponentiallyWhileScrapesFail() {
		ExpositionServer server = server(VLLM_V1);
		server.failWith(500);
		Endpoint endpoint = endpoint(server);
		long startNanos = System.nanoTime();

		scrapers.track(endpoint, settings.withIntervalMillis(20).withMaxBackoffMillis(320));

		await().atMost(PATIENCE).until(() -> status(endpoint).consecutiveFailures() >= 7);
		double elapsedMillis = (System.nanoTime() - startNanos) / 1e6;
		// Without backoff 7 failures take 7 x 20 ms; with it the delays are 20, 40, 80, 160, 320, 320 ms.
		assertThat(elapsedMillis).isGreaterThan(20 + 40 + 80 + 160 + 320 + 320);
		assertThat(status(endpoint).nextDelayMillis()).isEqualTo(320);
	}

	@Test
	void stampsSnapshotsWithTheInjectedClockSoTheyAgeWhileScrapesFail() {
		ExpositionServer server = server(VLLM_V1);
		Endpoint endpoint = endpoint(server);
		scrapers.track(endpoint, settings);
		await().atMost(PATIENCE).until(endpoint::isReady);
		EndpointSnapshot snapshot = endpoint.snapshot();
		assertThat(snapshot.scrapedAtMillis()).isEqualTo(clock.millis());
		assertThat(snapshot.ageMillis(clock.millis())).isZero();

		server.failWith(503);
		long failuresBefore = status(endpoint).failureCount();
		await().atMost(PATIENCE).until(() -> status(endpoint).failureCount() > failuresBefore);
		clock.advance(Duration.ofSeconds(5));

		EndpointSnapshot later = endpoint.snapshot();
		assertThat(later.scrapedAtMillis()).isLessThanOrEqualTo(clock.millis() - 5000);
		assertThat(later.isStale(clock.millis(), 200)).isTrue();
	}

	@Test
	void publishesANewSnapshotForEachSuccessfulScrape() {
		ExpositionServer server = server(VLLM_V1);
		Endpoint endpoint = endpoint(server);
		scrapers.track(endpoint, settings);
		await().atMost(PATIENCE).until(endpoint::isReady);
		EndpointSnapshot first = endpoint.snapshot();

		clock.advance(Duration.ofMillis(500));
		server.serve(VLLM_V1_WITH_QUEUE_OF_42);

		await().atMost(PATIENCE).until(() -> endpoint.snapshot().metrics().waitingRequests() == 42);
		assertThat(endpoint.snapshot().scrapedAtMillis()).isEqualTo(first.scrapedAtMillis() + 500);
	}

	@Test
	void failsAScrapeLackingARequiredSignalAndKeepsTheEndpointOut() {
		ExpositionServer server = server("vllm:num_requests_waiting 1\nvllm:num_requests_running 2\n"
			.getBytes(StandardCharsets.UTF_8));
		Endpoint endpoint = endpoint(server);

		scrapers.track(endpoint, settings);

		await().atMost(PATIENCE).until(() -> status(endpoint).failureCount() >= 3);
		assertThat(status(endpoint).lastErrorReason()).isEqualTo("missing_metric");
		assertThat(status(endpoint).lastError()).contains("kv-cache-usage");
		assertThat(endpoint.isReady()).isFalse();
		assertThat(endpoint.snapshot()).isNull();
	}

	@Test
	void failsAnExpositionOverTheSizeLimit() {
		ExpositionServer server = server(VLLM_V1);
		Endpoint endpoint = endpoint(server);

		scrapers.track(endpoint, settings.withMaxBodyBytes(4096));

		await().atMost(PATIENCE).until(() -> status(endpoint).failureCount() >= 1);
		assertThat(status(endpoint).lastErrorReason()).isEqualTo("body_too_large");
	}

	@Test
	void failsWhenNothingListens() throws IOException {
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		Endpoint endpoint = new Endpoint("llama", URI.create("http://127.0.0.1:" + port));

		scrapers.track(endpoint, settings);

		await().atMost(PATIENCE).until(() -> status(endpoint).failureCount() >= 1);
		assertThat(status(endpoint).lastErrorReason()).isEqualTo("connect");
	}

	@Test
	void reusesOneConnectionAcrossScrapes() {
		ExpositionServer server = server(VLLM_V1);
		Endpoint endpoint = endpoint(server);

		scrapers.track(endpoint, settings);

		await().atMost(PATIENCE).until(() -> server.requests() >= 20);
		assertThat(server.clientPorts()).hasSize(1);
	}

	@Test
	void readsAChunkedExposition() {
		ExpositionServer server = server(VLLM_V1);
		server.sendChunked();
		Endpoint endpoint = endpoint(server);

		scrapers.track(endpoint, settings);

		await().atMost(PATIENCE).until(() -> status(endpoint).scrapeCount() >= 3);
		assertThat(status(endpoint).failureCount()).isZero();
		assertThat(endpoint.snapshot().metrics()).isEqualTo(VLLM_V1_METRICS);
	}

	@Test
	void opensANewConnectionWhenTheServerClosesEachOne() {
		ExpositionServer server = server(VLLM_V1);
		server.closeEachConnection();
		Endpoint endpoint = endpoint(server);

		scrapers.track(endpoint, settings);

		await().atMost(PATIENCE).until(() -> server.requests() >= 5);
		assertThat(status(endpoint).failureCount()).isZero();
		assertThat(server.clientPorts()).hasSizeGreaterThanOrEqualTo(5);
		assertThat(endpoint.isReady()).isTrue();
	}

	@Test
	void scrapesTheConfiguredPath() {
		ExpositionServer server = server(VLLM_V1);
		Endpoint endpoint = endpoint(server);

		scrapers.track(endpoint, settings.withMetricsPath("/prometheus/metrics"));

		await().atMost(PATIENCE).until(endpoint::isReady);
		assertThat(server.log()).extracting(ExpositionServer.Request::path).containsOnly("/prometheus/metrics");
	}

	@Test
	void spreadsFirstScrapesAcrossTheInterval() {
		ExpositionServer server = server(VLLM_V1);
		long intervalMillis = 2000;
		int endpoints = 16;
		for (int i = 0; i < endpoints; i++) {
			// One server, told apart by path: each endpoint is its own pool.
			scrapers.track(new Endpoint("pool-" + i, server.baseUri()),
					settings.withIntervalMillis(intervalMillis).withMetricsPath("/metrics/" + i));
		}

		await().atMost(PATIENCE).until(() -> server.log().stream().map(ExpositionServer.Request::path).distinct()
			.count() == endpoints);
		Map<String, Long> firstNanos = new HashMap<>();
		server.log().forEach((request) -> firstNanos.putIfAbsent(request.path(), request.atNanos()));
		long spreadMillis = (firstNanos.values().stream().max(Long::compare).get()
				- firstNanos.values().stream().min(Long::compare).get()) / 1_000_000;
		// 16 uniform starts over 2 s all fall within 300 ms with probability below 1e-11.
		assertThat(spreadMillis).isGreaterThan(300);
	}

	@Test
	void untrackStopsPollingAndRemovesTheEndpointsMeters() throws InterruptedException {
		ExpositionServer server = server(VLLM_V1);
		Endpoint endpoint = endpoint(server);
		scrapers.track(endpoint, settings);
		await().atMost(PATIENCE).until(endpoint::isReady);

		assertThat(scrapers.untrack("llama", endpoint.id())).isTrue();
		int requestsAtUntrack = server.requests();
		Thread.sleep(300);

		assertThat(server.requests()).isLessThanOrEqualTo(requestsAtUntrack + 1);
		assertThat(endpointMeters(endpoint)).isEmpty();
		assertThat(scrapers.isTracked("llama", endpoint.id())).isFalse();
		assertThat(scrapers.status("llama", endpoint.id())).isEmpty();
		assertThat(scrapers.untrack("llama", endpoint.id())).isFalse();
	}

	@Test
	void registersGaugesOfTheLatestSnapshotATimerAndErrorCountersPerEndpoint() {
		ExpositionServer server = server(VLLM_V1);
		Endpoint endpoint = endpoint(server);
		scrapers.track(endpoint, settings);
		await().atMost(PATIENCE).until(endpoint::isReady);

		assertThat(gauge(EndpointMeters.WAITING_REQUESTS, endpoint)).isEqualTo(3);
		assertThat(gauge(EndpointMeters.RUNNING_REQUESTS, endpoint)).isEqualTo(12);
		assertThat(gauge(EndpointMeters.KV_CACHE_USAGE, endpoint)).isEqualTo(0.4213);
		assertThat(registry.get(EndpointMeters.SCRAPE_DURATION).tags("pool", "llama", "endpoint",
				endpoint.id().toString()).timer().count()).isPositive();

		server.failWith(503);

		await().atMost(PATIENCE).until(() -> registry.find(EndpointMeters.SCRAPE_ERRORS)
			.tags("pool", "llama", "endpoint", endpoint.id().toString(), "reason", "http_status")
			.counter() != null);
	}

	@Test
	void retrackingWithNewSettingsRestartsTheScraperAndKeepsReadiness() {
		ExpositionServer server = server(VLLM_V1);
		Endpoint endpoint = endpoint(server);
		scrapers.track(endpoint, settings);
		await().atMost(PATIENCE).until(endpoint::isReady);

		scrapers.track(endpoint, settings.withMetricsPath("/other"));

		assertThat(endpoint.isReady()).isTrue();
		await().atMost(PATIENCE).until(() -> server.log().stream().anyMatch((request) -> request.path().equals("/other")));
		assertThat(endpointMeters(endpoint)).isNotEmpty();
	}

	@Test
	void closeStopsEveryScraper() throws InterruptedException {
		ExpositionServer server = server(VLLM_V1);
		Endpoint endpoint = endpoint(server);
		scrapers.track(endpoint, settings);
		await().atMost(PATIENCE).until(endpoint::isReady);

		scrapers.close();
		int requestsAtClose = server.requests();
		Thread.sleep(300);

		assertThat(server.requests()).isLessThanOrEqualTo(requestsAtClose + 1);
		assertThat(endpointMeters(endpoint)).isEmpty();
		assertThat(endpoint.snapshot()).isNotNull();
	}

	private static final byte[] VLLM_V1_WITH_QUEUE_OF_42 = new String(VLLM_V1, StandardCharsets.UTF_8)
		.replace("vllm:num_requests_waiting{model_name=\"llama-3.1-8b-instruct\",engine=\"0\"} 3.0",
				"vllm:num_requests_waiting{model_name=\"llama-3.1-8b-instruct\",engine=\"0\"} 42.0")
		.getBytes(StandardCharsets.UTF_8);

	private ExpositionServer server(byte[] body) {
		ExpositionServer server = ExpositionServer.serving(body);
		servers.add(server);
		return server;
	}

	private static Endpoint endpoint(ExpositionServer server) {
		return new Endpoint("llama", server.baseUri());
	}

	private ScrapeStatus status(Endpoint endpoint) {
		return scrapers.status(endpoint.pool(), endpoint.id()).orElseThrow();
	}

	private double gauge(String name, Endpoint endpoint) {
		return registry.get(name).tags("pool", endpoint.pool(), "endpoint", endpoint.id().toString()).gauge().value();
	}

	private List<Meter> endpointMeters(Endpoint endpoint) {
		return registry.getMeters()
			.stream()
			.filter((meter) -> endpoint.id().toString().equals(meter.getId().getTag("endpoint")))
			.toList();
	}

	/** A wall clock that moves only when told. */
	private static final class TestClock implements InstantSource {

		private final AtomicLong millis;

		TestClock(long millis) {
			this.millis = new AtomicLong(millis);
		}

		void advance(Duration duration) {
			millis.addAndGet(duration.toMillis());
		}

		@Override
		public Instant instant() {
			return Instant.ofEpochMilli(millis.get());
		}

		@Override
		public long millis() {
			return millis.get();
		}
	}
}
