package io.infergate.routing.metrics;

import java.net.URI;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ScrapeSettingsTests {

	private final ScrapeSettings defaults = ScrapeSettings.defaults(EngineMapping.forEngine(EngineMapping.VLLM));

	@Test
	void defaultsToTheFieldRefreshInterval() {
		assertThat(defaults.intervalMillis()).isEqualTo(50);
		assertThat(defaults.timeoutMillis()).isEqualTo(1000);
		assertThat(defaults.failureThreshold()).isEqualTo(3);
		assertThat(defaults.maxBackoffMillis()).isEqualTo(1000);
		assertThat(defaults.metricsPath()).isEqualTo("/metrics");
		assertThat(defaults.metricsPort()).isEqualTo(-1);
		assertThat(defaults.defaultBlockSize()).isEqualTo(16);
		assertThat(defaults.defaultNumGpuBlocks()).isZero();
	}

	@Test
	void takesThePathAndPortWhereTheEngineServesItsMetrics() {
		ScrapeSettings trtllmServe = ScrapeSettings.defaults(EngineMapping.forEngine(EngineMapping.TRTLLM_SERVE));
		ScrapeSettings triton = ScrapeSettings.defaults(EngineMapping.forEngine(EngineMapping.TRITON_TRTLLM));

		assertThat(trtllmServe.metricsPath()).isEqualTo("/prometheus/metrics");
		assertThat(trtllmServe.metricsPort()).isEqualTo(-1);
		assertThat(triton.metricsPath()).isEqualTo("/metrics");
		assertThat(triton.metricsPort()).isEqualTo(8002);
	}

	@Test
	void backoffKeepsTheIntervalAfterOneFailureThenDoublesUpToTheCap() {
		ScrapeSettings settings = defaults.withIntervalMillis(50).withMaxBackoffMillis(1000);

		assertThat(settings.backoffMillis(1)).isEqualTo(50);
		assertThat(settings.backoffMillis(2)).isEqualTo(100);
		assertThat(settings.backoffMillis(3)).isEqualTo(200);
		assertThat(settings.backoffMillis(5)).isEqualTo(800);
		assertThat(settings.backoffMillis(6)).isEqualTo(1000);
		assertThat(settings.backoffMillis(Integer.MAX_VALUE)).isEqualTo(1000);
	}

	@Test
	void raisesTheBackoffCapToALongerInterval() {
		assertThat(defaults.withIntervalMillis(5000).maxBackoffMillis()).isEqualTo(5000);
	}

	@Test
	void rejectsInvalidValuesNamingTheSetting() {
		assertThatIllegalArgumentException().isThrownBy(() -> defaults.withIntervalMillis(0))
			.withMessage("intervalMillis must be positive, got 0");
		assertThatIllegalArgumentException().isThrownBy(() -> defaults.withTimeoutMillis(-1))
			.withMessage("timeoutMillis must be positive, got -1");
		assertThatIllegalArgumentException().isThrownBy(() -> defaults.withFailureThreshold(0))
			.withMessage("failureThreshold must be at least 1, got 0");
		assertThatIllegalArgumentException().isThrownBy(() -> defaults.withMaxBackoffMillis(10))
			.withMessage("maxBackoffMillis (10) must be at least intervalMillis (50)");
		assertThatIllegalArgumentException().isThrownBy(() -> defaults.withMetricsPath("metrics"))
			.withMessage("metricsPath must start with '/', got 'metrics'");
		assertThatIllegalArgumentException().isThrownBy(() -> defaults.withMetricsPort(0))
			.withMessage("metricsPort must be -1 or 1..65535, got 0");
		assertThatIllegalArgumentException().isThrownBy(() -> defaults.withKvCacheDefaults(0, 0))
			.withMessage("defaultBlockSize must be at least 1, got 0");
	}

	@Test
	void buildsTheMetricsUriFromTheBaseUriPathAndPort() {
		URI base = URI.create("http://10.0.0.5:8000");

		assertThat(EndpointScraper.metricsUri(base, defaults)).hasToString("http://10.0.0.5:8000/metrics");
		assertThat(EndpointScraper.metricsUri(base, defaults.withMetricsPath("/prometheus/metrics")))
			.hasToString("http://10.0.0.5:8000/prometheus/metrics");
		assertThat(EndpointScraper.metricsUri(base, defaults.withMetricsPort(8002)))
			.hasToString("http://10.0.0.5:8002/metrics");
	}
}
