package io.infergate.routing.discovery;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import reactor.core.Disposable;

import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import org.springframework.context.SmartLifecycle;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.pool.EndpointLifecycleListener;
import io.infergate.routing.pool.EndpointPool;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.PoolProperties;

/**
 * Keeps every pool's endpoints in the {@link EndpointRegistry} in step with the pool's instance supplier, for as
 * long as the application runs: from start for the pools configured then, from when a configuration reload adds
 * one, until it is removed.
 */
public class PoolEndpointSynchronizer implements SmartLifecycle, EndpointLifecycleListener {

	/** Starts before the web server so endpoints are known (and being scraped) before traffic arrives. */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 2048;

	/** The source of a pool's endpoints, given its name and settings. */
	@FunctionalInterface
	public interface Sources {

		/**
		 * @throws IllegalStateException when the settings name a source that is not available
		 */
		ServiceInstanceListSupplier forPool(String pool, PoolProperties.Pool settings);
	}

	private final EndpointRegistry registry;

	private final Sources sources;

	private final Map<String, Disposable> subscriptions = new ConcurrentHashMap<>();

	private volatile boolean running;

	/**
	 * @param sources each pool's source; called for every configured pool now, so one that is not available fails
	 * the start
	 */
	public PoolEndpointSynchronizer(EndpointRegistry registry, Sources sources) {
		this.registry = registry;
		this.sources = sources;
		for (EndpointPool pool : registry.pools()) {
			sources.forPool(pool.name(), pool.settings());
		}
		registry.addListener(this);
	}

	/** Why the pool's endpoints could not be read, or {@code null} when its source is available. */
	public String problem(String pool, PoolProperties.Pool settings) {
		try {
			sources.forPool(pool, settings);
			return null;
		}
		catch (IllegalStateException ex) {
			return ex.getMessage();
		}
	}

	@Override
	public synchronized void start() {
		running = true;
		for (EndpointPool pool : registry.pools()) {
			subscribe(pool);
		}
	}

	private void subscribe(EndpointPool pool) {
		String name = pool.name();
		subscriptions.computeIfAbsent(name, (key) -> sources.forPool(name, pool.settings())
			.get()
			.subscribe((instances) -> {
				// a pool removed while discovery was answering is not brought back
				if (registry.pool(name) == pool) {
					registry.sync(name, toUris(instances));
				}
			}));
	}

	private static List<URI> toUris(List<ServiceInstance> instances) {
		List<URI> uris = new ArrayList<>(instances.size());
		for (ServiceInstance instance : instances) {
			uris.add(instance.getUri());
		}
		return uris;
	}

	@Override
	public void poolAdded(EndpointPool pool) {
		if (running) {
			subscribe(pool);
		}
	}

	@Override
	public void poolRemoved(EndpointPool pool) {
		Disposable subscription = subscriptions.remove(pool.name());
		if (subscription != null) {
			subscription.dispose();
		}
	}

	@Override
	public void endpointAdded(EndpointPool pool, Endpoint endpoint) {
	}

	@Override
	public void endpointRemoved(EndpointPool pool, Endpoint endpoint) {
	}

	@Override
	public synchronized void stop() {
		running = false;
		subscriptions.values().forEach(Disposable::dispose);
		subscriptions.clear();
	}

	@Override
	public boolean isRunning() {
		return running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}
}
