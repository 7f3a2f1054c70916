package io.infergate.routing.discovery;

import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;

import io.infergate.routing.pool.PoolProperties;

/**
 * The endpoints of pools that name an {@code inference-pool}: a Gateway API Inference Extension
 * {@code InferencePool}, which the application reads (gateway-app watches it through the Kubernetes API). This
 * starter knows no Kubernetes types; without a bean of this type, a pool that names an InferencePool fails the
 * start.
 */
@FunctionalInterface
public interface InferencePoolSource {

	/**
	 * The pool's endpoints as the InferencePool {@code settings.inferencePool()} selects them. Watching starts on
	 * subscription and stops when it is disposed, so calling this only to check a pool costs nothing.
	 */
	ServiceInstanceListSupplier forPool(String pool, PoolProperties.Pool settings);
}
