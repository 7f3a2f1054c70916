package io.infergate.routing.pool;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.validation.Valid;
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

		public void setScrape(Scrape scrape) {
			this.scrape = scrape;
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
