package io.infergate.routing.pool;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointId;

/**
 * One pool's configuration and its current endpoints. The endpoint list is replaced as a whole when discovery
 * changes it, so readers iterate a stable list without locks.
 */
public final class EndpointPool {

	private final String name;

	private volatile PoolProperties.Pool settings;

	private volatile List<Endpoint> endpoints = List.of();

	private volatile boolean retiring;

	private volatile FailureMode discoveredFailureMode;

	public EndpointPool(String name, PoolProperties.Pool settings) {
		this.name = name;
		this.settings = settings;
	}

	public String name() {
		return name;
	}

	public PoolProperties.Pool settings() {
		return settings;
	}

	public EngineType engine() {
		return settings.engine();
	}

	/** The failure mode the pool's discovery states (an InferencePool's), else the configured one. */
	public FailureMode failureMode() {
		FailureMode discovered = discoveredFailureMode;
		return (discovered != null) ? discovered : settings.failureMode();
	}

	/**
	 * Applies the failure mode the pool's discovery source states, as an InferencePool's
	 * {@code endpointPickerRef.failureMode} does; {@code null}: the configured {@code failure-mode} again.
	 */
	public void discoveredFailureMode(FailureMode mode) {
		this.discoveredFailureMode = mode;
	}

	/** The configured profile name, or {@code null} for the default profile. */
	public String profileName() {
		return settings.profile();
	}

	/**
	 * After a configuration reload that changed only what applies at once (see {@link PoolProperties.Pool#reloadable});
	 * a retiring pool that the configuration names again stops retiring.
	 */
	void reconfigure(PoolProperties.Pool settings) {
		this.settings = settings;
		this.retiring = false;
	}

	/**
	 * Whether a configuration reload removed the pool while requests may still be on their way to it: it is still
	 * scraped and routed for those, no model names it any more, and it leaves the registry once idle.
	 */
	public boolean isRetiring() {
		return retiring;
	}

	void retire() {
		this.retiring = true;
	}

	public List<Endpoint> endpoints() {
		return endpoints;
	}

	void replaceEndpoints(List<Endpoint> endpoints) {
		this.endpoints = List.copyOf(endpoints);
	}

	/** The endpoints that may receive traffic, leaving out {@code excluded} (those a request already tried). */
	public List<Endpoint> readyEndpoints(Collection<EndpointId> excluded) {
		List<Endpoint> all = endpoints;
		List<Endpoint> ready = new ArrayList<>(all.size());
		for (Endpoint endpoint : all) {
			if (endpoint.isReady() && !excluded.contains(endpoint.id())) {
				ready.add(endpoint);
			}
		}
		return ready;
	}

	public Endpoint endpoint(EndpointId id) {
		for (Endpoint endpoint : endpoints) {
			if (endpoint.id().equals(id)) {
				return endpoint;
			}
		}
		return null;
	}

	@Override
	public String toString() {
		return "EndpointPool[" + name + ", " + endpoints.size() + " endpoints]";
	}
}
