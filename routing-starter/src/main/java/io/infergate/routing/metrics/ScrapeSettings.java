package io.infergate.routing.metrics;

import java.util.Objects;

/**
 * How one pool's endpoints are scraped. Immutable; start from {@link #defaults(EngineMapping)} and change what
 * differs with the {@code with...} methods.
 *
 * @param mapping how the engine's metrics map onto endpoint metrics
 * @param intervalMillis time between the starts of successive scrapes of one endpoint; default 50 ms, the
 * GIE/llm-d EPP {@code --refresh-metrics-interval}
 * @param timeoutMillis a scrape not complete after this long fails as {@code timeout}; default 1000 ms
 * @param failureThreshold consecutive failed scrapes after which the endpoint is marked not ready; default 3
 * @param maxBackoffMillis cap of the delay between failed scrapes, which doubles per failure; default 1000 ms
 * @param metricsPath path of the exposition on the endpoint; default the engine's,
 * {@link EngineMapping#defaultMetricsPath()}: {@code /metrics}, {@code /prometheus/metrics} for trtllm-serve
 * @param metricsPort port of the exposition, or -1 for the endpoint's own port; default the engine's,
 * {@link EngineMapping#defaultMetricsPort()}: -1, 8002 for Triton
 * @param defaultBlockSize tokens per KV-cache block when the server does not say; default 16
 * @param defaultNumGpuBlocks KV-cache blocks in all when the server does not say; default 0, unknown
 * @param maxBodyBytes a larger exposition fails as {@code body_too_large}; default 8 MiB
 */
public record ScrapeSettings(EngineMapping mapping, long intervalMillis, long timeoutMillis, int failureThreshold,
		long maxBackoffMillis, String metricsPath, int metricsPort, int defaultBlockSize, int defaultNumGpuBlocks,
		int maxBodyBytes) {

	public static final long DEFAULT_INTERVAL_MILLIS = 50;

	public static final long DEFAULT_TIMEOUT_MILLIS = 1000;

	public static final int DEFAULT_FAILURE_THRESHOLD = 3;

	public static final long DEFAULT_MAX_BACKOFF_MILLIS = 1000;

	public static final int DEFAULT_BLOCK_SIZE = 16;

	public static final int DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

	public ScrapeSettings {
		Objects.requireNonNull(mapping, "mapping");
		Objects.requireNonNull(metricsPath, "metricsPath");
		require(intervalMillis > 0, "intervalMillis must be positive, got " + intervalMillis);
		require(timeoutMillis > 0, "timeoutMillis must be positive, got " + timeoutMillis);
		require(failureThreshold >= 1, "failureThreshold must be at least 1, got " + failureThreshold);
		require(maxBackoffMillis >= intervalMillis,
				"maxBackoffMillis (" + maxBackoffMillis + ") must be at least intervalMillis (" + intervalMillis + ")");
		require(metricsPath.startsWith("/"), "metricsPath must start with '/', got '" + metricsPath + "'");
		require(metricsPort == -1 || (metricsPort >= 1 && metricsPort <= 65535),
				"metricsPort must be -1 or 1..65535, got " + metricsPort);
		require(defaultBlockSize >= 1, "defaultBlockSize must be at least 1, got " + defaultBlockSize);
		require(defaultNumGpuBlocks >= 0, "defaultNumGpuBlocks must not be negative, got " + defaultNumGpuBlocks);
		require(maxBodyBytes > 0, "maxBodyBytes must be positive, got " + maxBodyBytes);
	}

	/** The defaults listed on the class, with the metrics path and port where the mapping's engine serves them. */
	public static ScrapeSettings defaults(EngineMapping mapping) {
		return new ScrapeSettings(mapping, DEFAULT_INTERVAL_MILLIS, DEFAULT_TIMEOUT_MILLIS, DEFAULT_FAILURE_THRESHOLD,
				DEFAULT_MAX_BACKOFF_MILLIS, mapping.defaultMetricsPath(), mapping.defaultMetricsPort(),
				DEFAULT_BLOCK_SIZE, 0, DEFAULT_MAX_BODY_BYTES);
	}

	/** These settings with another interval; the backoff cap is raised to the interval if it was below. */
	public ScrapeSettings withIntervalMillis(long intervalMillis) {
		return new ScrapeSettings(mapping, intervalMillis, timeoutMillis, failureThreshold,
				Math.max(maxBackoffMillis, intervalMillis), metricsPath, metricsPort, defaultBlockSize,
				defaultNumGpuBlocks, maxBodyBytes);
	}

	public ScrapeSettings withTimeoutMillis(long timeoutMillis) {
		return new ScrapeSettings(mapping, intervalMillis, timeoutMillis, failureThreshold, maxBackoffMillis,
				metricsPath, metricsPort, defaultBlockSize, defaultNumGpuBlocks, maxBodyBytes);
	}

	public ScrapeSettings withFailureThreshold(int failureThreshold) {
		return new ScrapeSettings(mapping, intervalMillis, timeoutMillis, failureThreshold, maxBackoffMillis,
				metricsPath, metricsPort, defaultBlockSize, defaultNumGpuBlocks, maxBodyBytes);
	}

	public ScrapeSettings withMaxBackoffMillis(long maxBackoffMillis) {
		return new ScrapeSettings(mapping, intervalMillis, timeoutMillis, failureThreshold, maxBackoffMillis,
				metricsPath, metricsPort, defaultBlockSize, defaultNumGpuBlocks, maxBodyBytes);
	}

	public ScrapeSettings withMetricsPath(String metricsPath) {
		return new ScrapeSettings(mapping, intervalMillis, timeoutMillis, failureThreshold, maxBackoffMillis,
				metricsPath, metricsPort, defaultBlockSize, defaultNumGpuBlocks, maxBodyBytes);
	}

	public ScrapeSettings withMetricsPort(int metricsPort) {
		return new ScrapeSettings(mapping, intervalMillis, timeoutMillis, failureThreshold, maxBackoffMillis,
				metricsPath, metricsPort, defaultBlockSize, defaultNumGpuBlocks, maxBodyBytes);
	}

	public ScrapeSettings withKvCacheDefaults(int defaultBlockSize, int defaultNumGpuBlocks) {
		return new ScrapeSettings(mapping, intervalMillis, timeoutMillis, failureThreshold, maxBackoffMillis,
				metricsPath, metricsPort, defaultBlockSize, defaultNumGpuBlocks, maxBodyBytes);
	}

	public ScrapeSettings withMaxBodyBytes(int maxBodyBytes) {
		return new ScrapeSettings(mapping, intervalMillis, timeoutMillis, failureThreshold, maxBackoffMillis,
				metricsPath, metricsPort, defaultBlockSize, defaultNumGpuBlocks, maxBodyBytes);
	}

	/**
	 * The delay before the next scrape after {@code consecutiveFailures} failed ones in a row:
	 * min(intervalMillis · 2^(failures−1), maxBackoffMillis). One failure keeps the normal cadence, so a single
	 * lost response costs nothing; each further one doubles the wait.
	 */
	public long backoffMillis(int consecutiveFailures) {
		long delay = intervalMillis;
		for (int doubling = 1; doubling < consecutiveFailures; doubling++) {
			if (delay > maxBackoffMillis / 2) {
				return maxBackoffMillis;
			}
			delay *= 2;
		}
		return delay;
	}

	private static void require(boolean condition, String message) {
		if (!condition) {
			throw new IllegalArgumentException(message);
		}
	}
}
