package io.infergate.routing.pool;

import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointId;

/**
 * Every configured pool and its live endpoints. Pools are fixed at startup; each pool's endpoints follow
 * discovery through {@link #sync(String, Collection)}, which tells the lifecycle listeners what came and went.
 */
public final class EndpointRegistry {

	private static final Log logger = LogFactory.getLog(EndpointRegistry.class);

	private static final Pattern POOL_NAME = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?");

	private final Map<String, EndpointPool> pools;

	private final List<EndpointLifecycleListener> listeners = new CopyOnWriteArrayList<>();

	public EndpointRegistry(Map<String, PoolProperties.Pool> pools) {
		Map<String, EndpointPool> byName = new LinkedHashMap<>();
		pools.forEach((name, settings) -> {
			if (!POOL_NAME.matcher(name).matches()) {
				throw new IllegalArgumentException("infergate.pools." + name
						+ ": a pool name must be a host name label (letters, digits and '-'), because the gateway routes to lb://<pool>");
			}
			boolean hasStatic = !settings.endpoints().isEmpty();
			boolean hasDiscovery = settings.discoveryServiceId() != null && !settings.discoveryServiceId().isBlank();
			if (hasStatic == hasDiscovery) {
				throw new IllegalArgumentException("infergate.pools." + name
						+ ": set exactly one of 'endpoints' (a static list) and 'discovery-service-id'");
			}
			byName.put(name, new EndpointPool(name, settings));
		});
		this.pools = Collections.unmodifiableMap(byName);
	}

	public void addListener(EndpointLifecycleListener listener) {
		listeners.add(listener);
	}

	public Collection<EndpointPool> pools() {
		return pools.values();
	}

	/** The pool, or {@code null} when none has that name. */
	public EndpointPool pool(String name) {
		return pools.get(name);
	}

	/**
	 * After a configuration reload: the pool's settings become {@code settings}, and a static pool's endpoints its
	 * {@code endpoints} ({@link #sync}). Only what is read per request changes anything: the profile, the failure
	 * mode and the endpoints (see {@link PoolProperties.Pool#reloadable}).
	 */
	public synchronized void reconfigure(String poolName, PoolProperties.Pool settings) {
		EndpointPool pool = pools.get(poolName);
		if (pool == null) {
			throw new IllegalArgumentException("unknown pool '" + poolName + "'");
		}
		pool.reconfigure(settings);
		if (!settings.endpoints().isEmpty()) {
			sync(poolName, settings.endpoints());
		}
	}

	/**
	 * Makes the pool's endpoints exactly {@code baseUris}: endpoints not yet known are added (not ready until
	 * scraped), those no longer listed are removed. Endpoints present before and after keep their state.
	 */
	public synchronized void sync(String poolName, Collection<URI> baseUris) {
		EndpointPool pool = pools.get(poolName);
		if (pool == null) {
			throw new IllegalArgumentException("unknown pool '" + poolName + "'");
		}
		Map<EndpointId, URI> wanted = new LinkedHashMap<>();
		for (URI uri : baseUris) {
			wanted.putIfAbsent(EndpointId.of(uri), uri);
		}
		List<Endpoint> current = pool.endpoints();
		List<Endpoint> next = new ArrayList<>(wanted.size());
		List<Endpoint> added = new ArrayList<>();
		List<Endpoint> removed = new ArrayList<>();
		Set<EndpointId> kept = new LinkedHashSet<>();
		for (Endpoint endpoint : current) {
			if (wanted.containsKey(endpoint.id())) {
				next.add(endpoint);
				kept.add(endpoint.id());
			}
			else {
				removed.add(endpoint);
			}
		}
		wanted.forEach((id, uri) -> {
			if (!kept.contains(id)) {
				Endpoint endpoint = new Endpoint(poolName, uri);
				next.add(endpoint);
				added.add(endpoint);
			}
		});
		if (added.isEmpty() && removed.isEmpty()) {
			return;
		}
		pool.replaceEndpoints(next);
		for (Endpoint endpoint : removed) {
			logger.info("Pool '" + poolName + "': endpoint " + endpoint.id() + " removed");
			listeners.forEach((listener) -> listener.endpointRemoved(pool, endpoint));
		}
		for (Endpoint endpoint : added) {
			logger.info("Pool '" + poolName + "': endpoint " + endpoint.id() + " added");
			listeners.forEach((listener) -> listener.endpointAdded(pool, endpoint));
		}
	}
}
