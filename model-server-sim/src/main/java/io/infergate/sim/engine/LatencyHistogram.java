package io.infergate.sim.engine;

/**
 * A Prometheus-style histogram of latencies in seconds with fixed upper bounds; the {@code +Inf} bucket is
 * implied by the count.
 */
final class LatencyHistogram {

	/** vLLM's {@code vllm:time_to_first_token_seconds} buckets. */
	static final double[] TTFT_BOUNDS_SECONDS = { 0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75,
			1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0 };

	/** vLLM's {@code vllm:e2e_request_latency_seconds} buckets. */
	static final double[] E2E_BOUNDS_SECONDS = { 0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0,
			40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0 };

	private final double[] upperBoundsSeconds;

	private final long[] bucketCounts;

	private double sumSeconds;

	private long count;

	LatencyHistogram(double[] upperBoundsSeconds) {
		this.upperBoundsSeconds = upperBoundsSeconds;
		this.bucketCounts = new long[upperBoundsSeconds.length];
	}

	void observeMicros(long micros) {
		double seconds = micros / 1e6;
		for (int i = 0; i < this.upperBoundsSeconds.length; i++) {
			if (seconds <= this.upperBoundsSeconds[i]) {
				this.bucketCounts[i]++;
				break;
			}
		}
		this.sumSeconds += seconds;
		this.count++;
	}

	HistogramSnapshot snapshot() {
		long[] cumulative = new long[this.bucketCounts.length];
		long running = 0;
		for (int i = 0; i < cumulative.length; i++) {
			running += this.bucketCounts[i];
			cumulative[i] = running;
		}
		return new HistogramSnapshot(this.upperBoundsSeconds.clone(), cumulative, this.sumSeconds, this.count);
	}
}
