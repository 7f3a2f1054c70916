package io.infergate.routing.discovery;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.cloud.client.DefaultServiceInstance;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.ReactiveDiscoveryClient;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;

import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.pool.EndpointPool;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.PoolProperties;

/** The {@link ServiceInstanceListSupplier}s a pool's endpoints come from. */
public final class PoolInstanceSuppliers {

	private static final Log logger = LogFactory.getLog(PoolInstanceSuppliers.class);

	private PoolInstanceSuppliers() {
	}

	/**
	 * The source of a pool's endpoints: its static list, emitted once; its InferencePool's ready pods, as
	 * {@code inferencePools} watches them; or its discovery service's instances, re-read every
	 * {@code discovery-refresh-interval}. A failed discovery read emits nothing, so the pool keeps the endpoints it
	 * had.
	 *
	 * @param discovery the Spring Cloud discovery client, or {@code null} when none is available
	 * @param inferencePools the InferencePool source, or {@code null} when none is available
	 */
	public static ServiceInstanceListSupplier forPool(String pool, PoolProperties.Pool settings,
			ReactiveDiscoveryClient discovery, InferencePoolSource inferencePools) {
		if (settings.namesInferencePool()) {
			if (inferencePools == null) {
				throw new IllegalStateException("infergate.pools." + pool + ".inference-pool is set to '"
						+ settings.inferencePool() + "' but nothing watches InferencePools (gateway-app does when a "
						+ "pool names one at startup)");
			}
			return inferencePools.forPool(pool, settings);
		}
		if (!settings.endpoints().isEmpty()) {
			List<ServiceInstance> instances = settings.endpoints()
				.stream()
				.map((uri) -> toInstance(pool, EndpointId.of(uri), uri))
				.toList();
			return new FixedSupplier(pool, Flux.just(instances));
		}
		String serviceId = settings.discoveryServiceId();
		if (discovery == null) {
			throw new IllegalStateException("infergate.pools." + pool + ".discovery-service-id is set to '" + serviceId
					+ "' but no Spring Cloud discovery client is available");
		}
		Flux<List<ServiceInstance>> instances = Flux.interval(Duration.ZERO, settings.discoveryRefreshInterval())
			.onBackpressureDrop()
			.concatMap((tick) -> discovery.getInstances(serviceId).collectList().onErrorResume((ex) -> {
				logger.warn("Pool '" + pool + "': discovery of '" + serviceId + "' failed, keeping its endpoints: "
						+ ex.getMessage());
				return Mono.empty();
			}));
		return new FixedSupplier(pool, instances);
	}

	/** The registry's current endpoints of one pool, as service instances. */
	public static ServiceInstanceListSupplier fromRegistry(String pool, EndpointRegistry registry) {
		return new FixedSupplier(pool, Flux.defer(() -> {
			EndpointPool endpointPool = registry.pool(pool);
			if (endpointPool == null) {
				return Flux.just(List.of());
			}
			return Flux.just(endpointPool.endpoints().stream().map((e) -> toInstance(pool, e.id(), e.baseUri())).toList());
		}));
	}

	/** A supplier of the pool's instances as {@code instances} emits them. */
	public static ServiceInstanceListSupplier of(String pool, Flux<List<ServiceInstance>> instances) {
		return new FixedSupplier(pool, instances);
	}

	public static ServiceInstance toInstance(String pool, EndpointId id, URI uri) {
		return new DefaultServiceInstance(id.toString(), pool, id.host(), id.port(), "https".equalsIgnoreCase(uri.getScheme()));
	}

	private record FixedSupplier(String serviceId, Flux<List<ServiceInstance>> instances)
			implements ServiceInstanceListSupplier {

		@Override
		public String getServiceId() {
			return serviceId;
		}

		@Override
		public Flux<List<ServiceInstance>> get() {
			return instances;
		}
	}
}
