package io.infergate.gateway.picker.kubernetes;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import io.fabric8.kubernetes.client.KubernetesClient;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

import io.infergate.gateway.discovery.InferencePoolReference;
import io.infergate.gateway.discovery.InferencePoolWatch;
import io.infergate.gateway.discovery.InferencePoolsNamed;
import io.infergate.routing.pool.PoolProperties;

/**
 * The InferenceObjectives of the InferencePools that pools name at startup; without such a pool there is no bean,
 * and nothing talks to the Kubernetes API.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(InferencePoolsNamed.class)
public class KubernetesInferenceObjectivesConfiguration {

	@Bean
	KubernetesInferenceObjectives kubernetesInferenceObjectives(InferencePoolWatch inferencePools,
			KubernetesClient client, PoolProperties properties) {
		Map<String, Set<String>> byNamespace = new LinkedHashMap<>();
		properties.pools().values().stream().filter(PoolProperties.Pool::namesInferencePool).forEach((pool) -> {
			InferencePoolReference reference = inferencePools.reference(pool);
			byNamespace.computeIfAbsent(reference.namespace(), (namespace) -> new LinkedHashSet<>())
				.add(reference.name());
		});
		return new KubernetesInferenceObjectives(client, byNamespace);
	}
}
