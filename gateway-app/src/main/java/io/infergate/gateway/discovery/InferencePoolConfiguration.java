package io.infergate.gateway.discovery;

import io.fabric8.kubernetes.client.KubernetesClient;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

import io.infergate.routing.pool.EndpointRegistry;

/**
 * The InferencePool source of pools that name an {@code inference-pool}, on the Kubernetes client Spring Cloud
 * Kubernetes configures ({@code spring.cloud.kubernetes.client.*}); the routing starter's endpoint synchronizer
 * consults it for those pools.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(InferencePoolsNamed.class)
public class InferencePoolConfiguration {

	@Bean
	InferencePoolWatch inferencePoolWatch(ObjectProvider<KubernetesClient> client, EndpointRegistry registry) {
		KubernetesClient kubernetes = client.getIfAvailable();
		if (kubernetes == null) {
			throw new IllegalStateException("A pool names an inference-pool but no Kubernetes client is available; "
					+ "Spring Cloud Kubernetes creates one when spring.main.cloud-platform is kubernetes");
		}
		return new InferencePoolWatch(kubernetes, registry);
	}
}
