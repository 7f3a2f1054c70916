package io.infergate.gateway.discovery;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
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
 * Both are defaults of the lowest precedence: any value the application sets wins.
 */
public class KubernetesDiscoveryEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	static final String DISCOVERY_ENABLED = "spring.cloud.kubernetes.discovery.enabled";

	static final String CATALOG_WATCH_ENABLED = "spring.cloud.kubernetes.discovery.catalog-services-watch.enabled";

	@Override
	public int getOrder() {
		// after the application's own configuration has been loaded
		return Ordered.LOWEST_PRECEDENCE - 50;
	}

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		boolean discoveryNamed = PoolProperties.configuredPools(Binder.get(environment))
			.values()
			.stream()
			.anyMatch((pool) -> pool.discoveryServiceId() != null && !pool.discoveryServiceId().isBlank());
		Map<String, Object> defaults = new LinkedHashMap<>();
		defaults.put(DISCOVERY_ENABLED, discoveryNamed);
		defaults.put(CATALOG_WATCH_ENABLED, false);
		environment.getPropertySources().addLast(new MapPropertySource("infergate-kubernetes-discovery", defaults));
	}
}
