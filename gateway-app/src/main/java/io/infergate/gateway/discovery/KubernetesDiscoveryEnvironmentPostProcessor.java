package io.infergate.gateway.discovery;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.logging.Log;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import io.infergate.routing.pool.PoolProperties;

/**
 * Kubernetes discovery only when it is asked for. Spring Cloud Kubernetes activates on any Kubernetes node, where
 * it watches Services and Endpoints through the API server (and needs the RBAC for it). Infergate turns that on only
 * when some pool names a {@code discovery-service-id}: a gateway with static endpoints never talks to the API
 * server. The catalog watch is off too, since Infergate re-reads each pool's instances on its own interval
 * ({@code discovery-refresh-interval}).
 * <p>
 * A pool that names an {@code inference-pool} needs the Kubernetes client but not discovery: when some pool does,
 * the cloud platform defaults to Kubernetes, which is what it is detected as inside a cluster, so that Spring Cloud
 * Kubernetes also creates its client outside one (from {@code spring.cloud.kubernetes.client.*} or the kubeconfig).
 * <p>
 * All are defaults of the lowest precedence: any value the application sets wins. They cannot be a default in a
 * file, since they depend on the pools; startup logs which pools turned them on.
 */
public class KubernetesDiscoveryEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	private final Log logger;

	public KubernetesDiscoveryEnvironmentPostProcessor(DeferredLogFactory logs) {
		this.logger = logs.getLog(KubernetesDiscoveryEnvironmentPostProcessor.class);
	}

	static final String DISCOVERY_ENABLED = "spring.cloud.kubernetes.discovery.enabled";

	static final String CATALOG_WATCH_ENABLED = "spring.cloud.kubernetes.discovery.catalog-services-watch.enabled";

	static final String CLOUD_PLATFORM = "spring.main.cloud-platform";

	@Override
	public int getOrder() {
		// after the application's own configuration has been loaded
		return Ordered.LOWEST_PRECEDENCE - 50;
	}

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		List<String> discovering = PoolProperties.configuredPools(Binder.get(environment))
			.entrySet()
			.stream()
			.filter((pool) -> pool.getValue().discoveryServiceId() != null
					&& !pool.getValue().discoveryServiceId().isBlank())
			.map(Map.Entry::getKey)
			.toList();
		boolean discoveryNamed = !discovering.isEmpty();
		if (discoveryNamed) {
			logger.info("Pools " + discovering + " name a discovery-service-id: Spring Cloud Kubernetes discovery is on "
					+ "unless " + DISCOVERY_ENABLED + " says otherwise");
		}
		Map<String, Object> defaults = new LinkedHashMap<>();
		defaults.put(DISCOVERY_ENABLED, discoveryNamed);
		defaults.put(CATALOG_WATCH_ENABLED, false);
		List<String> watching = InferencePoolsNamed.pools(Binder.get(environment));
		if (!watching.isEmpty()) {
			logger.info("Pools " + watching + " name an inference-pool: the Kubernetes client is on (cloud platform "
					+ "kubernetes) unless " + CLOUD_PLATFORM + " says otherwise");
			defaults.put(CLOUD_PLATFORM, "kubernetes");
		}
		environment.getPropertySources().addLast(new MapPropertySource("infergate-kubernetes-discovery", defaults));
	}
}
