package io.infergate.routing.pool;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.validation.annotation.Validated;

/**
 * The model-server pools, {@code infergate.pools.<name>.*}. A pool's name is the service id the gateway routes to
 * ({@code lb://<name>}), so it must be a valid host name label.
 */
@Validated
@ConfigurationProperties("infergate")
public class PoolProperties {

	@Valid
	private Map<String, Pool> pools = new LinkedHashMap<>();

	/**
	 * The pools configured in {@code binder}'s environment, empty when none, for code that runs before the
	 * properties are bound (environment post-processors).
	 */
	public static Map<String, Pool> configuredPools(Binder binder) {
		return binder.bind("infergate.pools", Bindable.mapOf(String.class, Pool.class)).orElse(Map.of());
	}

	public Map<String, Pool> getPools() {
		return pools;
	}

	public void setPools(Map<String, Pool> pools) {
		this.pools = pools;
	}

	public static class Pool {

		/** The engine the pool's servers run; picks the metric mapping. */
		@NotNull
		private EngineType engine = EngineType.VLLM;

		/** Static endpoint base URIs, e.g. {@code http://10.0.0.5:8000}. Exclusive with discovery-service-id. */
		private List<URI> endpoints = new ArrayList<>();

		/** A Spring Cloud discovery service id whose instances are the pool's endpoints. */
		private String discoveryServiceId;

		/** How often discovered instances are re-read. */
		@NotNull
		private Duration discoveryRefreshInterval = Duration.ofSeconds(5);

		/** The scheduling profile; when unset, {@code infergate.scheduling.default-profile}. */
		private String profile;

		/** What to do when scheduling fails while ready endpoints exist. */
		@NotNull
		private FailureMode failureMode = FailureMode.FAIL_CLOSE;

		@Valid
		@NotNull
		private Scrape scrape = new Scrape();

		@Valid
		@NotNull
		private KvEvents kvEvents = new KvEvents();

		/**
		 * A credential of the gateway's own for the pool's model servers, sent as {@code Authorization: Bearer};
		 * clients' credentials are never forwarded. Give it from the environment rather than a file.
		 */
		private String upstreamApiKey;

		@Valid
		@NotNull
		private Timeouts timeouts = new Timeouts();

		public EngineType getEngine() {
			return engine;
		}

		public void setEngine(EngineType engine) {
			this.engine = engine;
		}

		public List<URI> getEndpoints() {
			return endpoints;
		}

		public void setEndpoints(List<URI> endpoints) {
			this.endpoints = endpoints;
		}

		public String getDiscoveryServiceId() {
			return discoveryServiceId;
		}

		public void setDiscoveryServiceId(String discoveryServiceId) {
			this.discoveryServiceId = discoveryServiceId;
		}

		public Duration getDiscoveryRefreshInterval() {
			return discoveryRefreshInterval;
		}

		public void setDiscoveryRefreshInterval(Duration discoveryRefreshInterval) {
			this.discoveryRefreshInterval = discoveryRefreshInterval;
		}

		public String getProfile() {
			return profile;
		}

		public void setProfile(String profile) {
			this.profile = profile;
		}

		public FailureMode getFailureMode() {
			return failureMode;
		}

		public void setFailureMode(FailureMode failureMode) {
			this.failureMode = failureMode;
		}

		public Scrape getScrape() {
			return scrape;
		}

		public String getUpstreamApiKey() {
			return upstreamApiKey;
		}

		public void setUpstreamApiKey(String upstreamApiKey) {
			this.upstreamApiKey = upstreamApiKey;
		}

		public void setScrape(Scrape scrape) {
			this.scrape = scrape;
		}

		public KvEvents getKvEvents() {
			return kvEvents;
		}

		public void setKvEvents(KvEvents kvEvents) {
			this.kvEvents = kvEvents;
		}

		public Timeouts getTimeouts() {
			return timeouts;
		}

		public void setTimeouts(Timeouts timeouts) {
			this.timeouts = timeouts;
		}
	}

	/**
	 * How long the gateway waits on one of the pool's model servers, {@code infergate.pools.<name>.timeouts.*}. Both
	 * are off by default: a non-streamed completion sends its headers only once the whole answer is ready, and a
	 * model server may pause a stream while it serves others, so only the operator knows what is too slow.
	 */
	public static class Timeouts {

		/**
		 * Longest wait for an attempt's response headers; past it the attempt is abandoned and retried on another
		 * endpoint (within {@code infergate.gateway.retries}), then a fallback model, else 504. Unset: the HTTP
		 * client's response timeout.
		 */
		private Duration firstByte;

		/**
		 * Longest silence in a streamed response, from its headers to the first event and between events; past it
		 * the stream ends with an error event and the connection to the model server is closed. Unset: no limit.
		 */
		private Duration streamIdle;

		public Duration getFirstByte() {
			return firstByte;
		}

		public void setFirstByte(Duration firstByte) {
			this.firstByte = firstByte;
		}

		public Duration getStreamIdle() {
			return streamIdle;
		}

		public void setStreamIdle(Duration streamIdle) {
			this.streamIdle = streamIdle;
		}
	}

	/**
	 * Subscription to every endpoint's KV-cache event stream (vLLM's ZeroMQ publisher), feeding the engine block index
	 * that the {@code precise-prefix} scorer reads. Off by default.
	 */
	public static class KvEvents {

		/** Whether to subscribe to the pool's endpoints' event streams. */
		private boolean enabled;

		/** The publisher's port on each endpoint's host; vLLM's default is 5557. */
		@Min(1)
		@Max(65535)
		private int port = 5557;

		/** The replay socket's port on each endpoint's host; unset: no replay, a missed batch cannot be recovered. */
		@Min(1)
		@Max(65535)
		private Integer replayPort;

		/** Topic prefix to subscribe to; empty takes every message, as vLLM's default topic is empty. */
		@NotNull
		private String topic = "";

		/** How long to wait for a replay to end before giving up on the batches it was to bring. */
		@NotNull
		private Duration replayTimeout = Duration.ofSeconds(2);

		/**
		 * How long an endpoint's stream may stay disconnected before its blocks are forgotten (a publisher that comes
		 * back is then read from its replay buffer, or from its next batch on).
		 */
		@NotNull
		private Duration staleAfter = Duration.ofSeconds(5);

		/**
		 * Addresses replacing the derived ones, per endpoint ({@code host:port} as in {@code /actuator/inference}):
		 * {@code publisher} and optional {@code replay}, e.g. {@code tcp://10.0.0.5:6000}.
		 */
		@Valid
		private Map<String, Addresses> addresses = new LinkedHashMap<>();

		public boolean isEnabled() {
			return enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getPort() {
			return port;
		}

		public void setPort(int port) {
			this.port = port;
		}

		public Integer getReplayPort() {
			return replayPort;
		}

		public void setReplayPort(Integer replayPort) {
			this.replayPort = replayPort;
		}

		public String getTopic() {
			return topic;
		}

		public void setTopic(String topic) {
			this.topic = topic;
		}

		public Duration getReplayTimeout() {
			return replayTimeout;
		}

		public void setReplayTimeout(Duration replayTimeout) {
			this.replayTimeout = replayTimeout;
		}

		public Duration getStaleAfter() {
			return staleAfter;
		}

		public void setStaleAfter(Duration staleAfter) {
			this.staleAfter = staleAfter;
		}

		public Map<String, Addresses> getAddresses() {
			return addresses;
		}

		public void setAddresses(Map<String, Addresses> addresses) {
			this.addresses = addresses;
		}
	}

	/** One endpoint's event-stream addresses, ZeroMQ endpoints such as {@code tcp://10.0.0.5:5557}. */
	public static class Addresses {

		/** The PUB socket to subscribe to. */
		@NotNull
		private String publisher;

		/** The ROUTER replay socket, or unset for none. */
		private String replay;

		public String getPublisher() {
			return publisher;
		}

		public void setPublisher(String publisher) {
			this.publisher = publisher;
		}

		public String getReplay() {
			return replay;
		}

		public void setReplay(String replay) {
			this.replay = replay;
		}
	}

	/** How a pool's {@code /metrics} endpoints are polled. */
	public static class Scrape {

		/** Poll interval; the GIE/llm-d EPP default {@code --refresh-metrics-interval} is 50 ms. */
		@NotNull
		private Duration interval = Duration.ofMillis(50);

		/** Timeout of one scrape. */
		@NotNull
		private Duration timeout = Duration.ofSeconds(1);

		/** Consecutive failed scrapes after which an endpoint stops receiving traffic. */
		private int unreadyAfterFailures = 3;

		/** Tokens per KV block when the server does not report it. */
		private int defaultBlockSize = 16;

		/** KV blocks when the server does not report them (0: unknown). */
		private int defaultNumGpuBlocks = 0;

		/**
		 * Path of the Prometheus exposition; when unset, the engine's ({@code /metrics}, or
		 * {@code /prometheus/metrics} for trtllm-serve).
		 */
		private String metricsPath;

		/** Port of the exposition; when unset, the endpoint's own port (8002 for triton-trtllm). */
		private Integer metricsPort;

		/**
		 * Per-signal metric selectors replacing the engine's defaults: keys {@code waiting-requests},
		 * {@code running-requests}, {@code kv-cache-usage}, {@code block-size}, {@code num-gpu-blocks},
		 * {@code lora-info}; values like {@code 'my_queue{tier="a"}'}.
		 */
		private Map<String, String> metricOverrides = new LinkedHashMap<>();

		public Duration getInterval() {
			return interval;
		}

		public void setInterval(Duration interval) {
			this.interval = interval;
		}

		public Duration getTimeout() {
			return timeout;
		}

		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}

		public int getUnreadyAfterFailures() {
			return unreadyAfterFailures;
		}

		public void setUnreadyAfterFailures(int unreadyAfterFailures) {
			this.unreadyAfterFailures = unreadyAfterFailures;
		}

		public int getDefaultBlockSize() {
			return defaultBlockSize;
		}

		public void setDefaultBlockSize(int defaultBlockSize) {
			this.defaultBlockSize = defaultBlockSize;
		}

		public int getDefaultNumGpuBlocks() {
			return defaultNumGpuBlocks;
		}

		public void setDefaultNumGpuBlocks(int defaultNumGpuBlocks) {
			this.defaultNumGpuBlocks = defaultNumGpuBlocks;
		}

		public String getMetricsPath() {
			return metricsPath;
		}

		public void setMetricsPath(String metricsPath) {
			this.metricsPath = metricsPath;
		}

		public Integer getMetricsPort() {
			return metricsPort;
		}

		public void setMetricsPort(Integer metricsPort) {
			this.metricsPort = metricsPort;
		}

		public Map<String, String> getMetricOverrides() {
			return metricOverrides;
		}

		public void setMetricOverrides(Map<String, String> metricOverrides) {
			this.metricOverrides = metricOverrides;
		}
	}
}
