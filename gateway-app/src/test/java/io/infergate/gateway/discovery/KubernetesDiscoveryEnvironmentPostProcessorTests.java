package io.infergate.gateway.discovery;

import java.util.Map;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

class KubernetesDiscoveryEnvironmentPostProcessorTests {

	private final KubernetesDiscoveryEnvironmentPostProcessor postProcessor = new KubernetesDiscoveryEnvironmentPostProcessor(
			Supplier::get);

	private StandardEnvironment environment(Map<String, Object> properties) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().addFirst(new MapPropertySource("application", properties));
		postProcessor.postProcessEnvironment(environment, new SpringApplication());
		return environment;
	}

	@Test
	void kubernetesDiscoveryStaysOffWhenEveryPoolHasStaticEndpoints() {
		StandardEnvironment environment = environment(Map.of("infergate.pools.llama.endpoints", "http://10.0.0.5:8000"));

		assertThat(environment.getProperty(KubernetesDiscoveryEnvironmentPostProcessor.DISCOVERY_ENABLED))
			.isEqualTo("false");
	}

	@Test
	void kubernetesDiscoveryTurnsOnWhenAPoolNamesADiscoveryService() {
		StandardEnvironment environment = environment(Map.of("infergate.pools.llama.discovery-service-id", "llama-pods"));

		assertThat(environment.getProperty(KubernetesDiscoveryEnvironmentPostProcessor.DISCOVERY_ENABLED))
			.isEqualTo("true");
		assertThat(environment.getProperty(KubernetesDiscoveryEnvironmentPostProcessor.CATALOG_WATCH_ENABLED))
			.isEqualTo("false");
	}

	@Test
	void anInferencePoolTurnsOnTheKubernetesClientButNotDiscovery() {
		StandardEnvironment environment = environment(Map.of("infergate.pools.llama.inference-pool", "llama-pool"));

		assertThat(environment.getProperty(KubernetesDiscoveryEnvironmentPostProcessor.CLOUD_PLATFORM))
			.isEqualTo("kubernetes");
		assertThat(environment.getProperty(KubernetesDiscoveryEnvironmentPostProcessor.DISCOVERY_ENABLED))
			.isEqualTo("false");
	}

	@Test
	void theCloudPlatformIsLeftToDetectionWithoutAnInferencePool() {
		StandardEnvironment environment = environment(Map.of("infergate.pools.llama.discovery-service-id", "llama-pods"));

		assertThat(environment.getProperty(KubernetesDiscoveryEnvironmentPostProcessor.CLOUD_PLATFORM)).isNull();
	}

	@Test
	void applicationSettingsWin() {
		StandardEnvironment environment = environment(Map.of("infergate.pools.llama.endpoints", "http://10.0.0.5:8000",
				KubernetesDiscoveryEnvironmentPostProcessor.DISCOVERY_ENABLED, "true"));

		assertThat(environment.getProperty(KubernetesDiscoveryEnvironmentPostProcessor.DISCOVERY_ENABLED))
			.isEqualTo("true");
	}
}
