package io.infergate.routing.discovery;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import reactor.core.Disposable;
import reactor.core.Disposables;

import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import org.springframework.context.SmartLifecycle;

import io.infergate.routing.pool.EndpointRegistry;

/**
 * Keeps every pool's endpoints in the {@link EndpointRegistry} in step with the pool's instance supplier, for as
 * long as the application runs.
 */
public class PoolEndpointSynchronizer implements SmartLifecycle {

	/** Starts before the web server so endpoints are known (and being scraped) before traffic arrives. */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 2048;

	private final EndpointRegistry registry;

	private final Map<String, ServiceInstanceListSupplier> suppliers;

	private volatile Disposable.Composite subscriptions;

	public PoolEndpointSynchronizer(EndpointRegistry registry, Map<String, ServiceInstanceListSupplier> suppliers) {
		this.registry = registry;
		this.suppliers = suppliers;
	}

	@Override
	public void start() {
		Disposable.Composite composite = Disposables.composite();
		suppliers.forEach((pool, supplier) -> composite
			.add(supplier.get().subscribe((instances) -> registry.sync(pool, toUris(instances)))));
		subscriptions = composite;
	}

	private static List<URI> toUris(List<ServiceInstance> instances) {
		List<URI> uris = new ArrayList<>(instances.size());
		for (ServiceInstance instance : instances) {
			uris.add(instance.getUri());
		}
		return uris;
	}

	@Override
	public void stop() {
		Disposable.Composite composite = subscriptions;
		if (composite != null) {
			composite.dispose();
			subscriptions = null;
		}
	}

	@Override
	public boolean isRunning() {
		return subscriptions != null;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}
}
