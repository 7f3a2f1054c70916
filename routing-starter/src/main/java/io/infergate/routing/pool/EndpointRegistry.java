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
 * Every configured pool and its live endpoints. Each pool's endpoints follow discovery through
 * {@link #sync(String, Collection)}; a configuration reload adds pools ({@link #addPool}) and removes them, first
 * retiring each ({@link #retire}) and then, once nothing is on its way to it, removing it ({@link #removePool}). The
 * lifecycle listeners are told what came and went.
 */
public final class EndpointRegistry {

	private static final Log logger = LogFactory.getLog(EndpointRegistry.class);

	private static final Pattern POOL_NAME = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?");

	/** An optional namespace (a DNS label) and an object name (a DNS subdomain), as Kubernetes spells them. */
	private static final Pattern INFERENCE_POOL = Pattern
		.compile("([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?/)?[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?");

	/** Replaced whole on each change, so readers iterate a stable map without locks. */
	private volatile Map<String, EndpointPool> pools;

	private final List<EndpointLifecycleListener> listeners = new CopyOnWriteArrayList<>();

	public EndpointRegistry(Map<String, PoolProperties.Pool> pools) {
		Map<String, EndpointPool> byName = new LinkedHashMap<>();
		pools.forEach((name, settings) -> {
			List<String> problems = problems(name, settings);
			if (!problems.isEmpty()) {
				throw new IllegalArgumentException(problems.get(0));
			}
			byName.put(name, new EndpointPool(name, settings));
		});
		this.pools = Collections.unmodifiableMap(byName);
	}

	/** What is wrong with a pool's name and its source of endpoints; empty when a pool can be made of them. */
	public static List<String> problems(String name, PoolProperties.Pool settings) {
		List<String> problems = new ArrayList<>();
		if (!POOL_NAME.matcher(name).matches()) {
			problems.add("infergate.pools." + name
					+ ": a pool name must be a host name label (letters, digits and '-'), because the gateway routes to lb://<pool>");
		}
		boolean hasStatic = !settings.endpoints().isEmpty();
		boolean hasDiscovery = settings.discoveryServiceId() != null && !settings.discoveryServiceId().isBlank();
		int sources = (hasStatic ? 1 : 0) + (hasDiscovery ? 1 : 0) + (settings.namesInferencePool() ? 1 : 0);
		if (sources != 1) {
			problems.add("infergate.pools." + name
					+ ": set exactly one of 'endpoints' (a static list), 'discovery-service-id' or 'inference-pool'");
		}
		if (settings.namesInferencePool() && !INFERENCE_POOL.matcher(settings.inferencePool()).matches()) {
			problems.add("infergate.pools." + name + ".inference-pool: must be <name> or <namespace>/<name> "
					+ "(Kubernetes object names), got '" + settings.inferencePool() + "'");
		}
		return problems;
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
	 * Adds a pool that a configuration reload introduced, without endpoints: its listeners (the endpoint sources
	 * among them) are told, and its endpoints arrive through {@link #sync}.
	 *
	 * @throws IllegalArgumentException when a pool has that name or the settings have {@link #problems}
	 */
	public synchronized EndpointPool addPool(String poolName, PoolProperties.Pool settings) {
		if (pools.containsKey(poolName)) {
			throw new IllegalArgumentException("pool '" + poolName + "' exists");
		}
		List<String> problems = problems(poolName, settings);
		if (!problems.isEmpty()) {
			throw new IllegalArgumentException(String.join("; ", problems));
		}
		EndpointPool pool = new EndpointPool(poolName, settings);
		Map<String, EndpointPool> next = new LinkedHashMap<>(pools);
		next.put(poolName, pool);
		pools = Collections.unmodifiableMap(next);
		logger.info("Pool '" + poolName + "' added");
		listeners.forEach((listener) -> listener.poolAdded(pool));
		return pool;
	}

	/**
	 * Marks a pool that the configuration no longer has as retiring: it keeps its endpoints, which keep being
	 * scraped, for the requests already on their way to it, until {@link #removePool}.
	 */
	public synchronized void retire(String poolName) {
		EndpointPool pool = pools.get(poolName);
		if (pool != null && !pool.isRetiring()) {
			pool.retire();
			logger.info("Pool '" + poolName + "' retiring: removed from the configuration, draining");
		}
	}

	/**
	 * Removes a pool: its endpoints are removed (each listener told), then the pool (each listener told). Discovery
	 * results for it that arrive later are ignored.
	 */
	public synchronized void removePool(String poolName) {
		EndpointPool pool = pools.get(poolName);
		if (pool == null) {
			return;
		}
		Map<String, EndpointPool> next = new LinkedHashMap<>(pools);
		next.remove(poolName);
		pools = Collections.unmodifiableMap(next);
		List<Endpoint> removed = pool.endpoints();
		pool.replaceEndpoints(List.of());
		for (Endpoint endpoint : removed) {
			listeners.forEach((listener) -> listener.endpointRemoved(pool, endpoint));
		}
		logger.info("Pool '" + poolName + "' removed with its " + removed.size() + " endpoint(s)");
		listeners.forEach((listener) -> listener.poolRemoved(pool));
	}

	/**
	 * After a configuration reload: the pool's settings become {@code settings}, and a static pool's endpoints its
	 * {@code endpoints} ({@link #sync}), and a retiring pool serves again. Only what is read per request changes
	 * anything (see {@link PoolProperties.Pool#reloadable}).
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
