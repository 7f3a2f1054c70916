package io.infergate.routing.kvevents;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.pool.EndpointLifecycleListener;
import io.infergate.routing.pool.EndpointPool;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.PoolProperties;

/**
 * Subscribes to the KV-cache event stream of every endpoint of every pool with {@code kv-events.enabled}, for as long
 * as discovery lists the endpoint: an endpoint added is subscribed to, one removed unsubscribed and purged from the
 * index. Addresses are the endpoint's host with the pool's {@code port} (and {@code replay-port}), unless
 * {@code addresses} names the endpoint. Each pool's settings are checked once: at startup, or when a configuration
 * reload adds the pool (the reload checks them first with {@link #problems}).
 */
public final class KvEventSubscriptions implements EndpointLifecycleListener, AutoCloseable {

	private final KvEventSubscriber subscriber;

	private final Map<String, PoolProperties.KvEvents> settingsByPool = new ConcurrentHashMap<>();

	public KvEventSubscriptions(EndpointRegistry registry, KvEventSubscriber subscriber) {
		this.subscriber = subscriber;
		for (EndpointPool pool : registry.pools()) {
			PoolProperties.KvEvents kvEvents = pool.settings().kvEvents();
			if (kvEvents.enabled()) {
				check(pool.name(), kvEvents);
				settingsByPool.put(pool.name(), kvEvents);
			}
		}
		registry.addListener(this);
		for (EndpointPool pool : registry.pools()) {
			for (Endpoint endpoint : pool.endpoints()) {
				endpointAdded(pool, endpoint);
			}
		}
	}

	/** What is wrong with a pool's KV-event settings: empty, or the first problem. */
	public static List<String> problems(String pool, PoolProperties.Pool settings) {
		if (!settings.kvEvents().enabled()) {
			return List.of();
		}
		try {
			check(pool, settings.kvEvents());
			return List.of();
		}
		catch (IllegalArgumentException ex) {
			return List.of(ex.getMessage());
		}
	}

	private static void check(String pool, PoolProperties.KvEvents kvEvents) {
		String prefix = "infergate.pools." + pool + ".kv-events";
		try {
			settings(new EndpointId("localhost", 1), kvEvents);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException(prefix + ": " + ex.getMessage(), ex);
		}
		kvEvents.addresses().forEach((endpoint, addresses) -> {
			String at = prefix + ".addresses." + endpoint;
			try {
				EndpointId.parse(endpoint);
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalArgumentException(at + ": the key must be an endpoint's host:port, was '" + endpoint
						+ "'", ex);
			}
			checkAddress(at + ".publisher", addresses.publisher());
			if (addresses.replay() != null) {
				checkAddress(at + ".replay", addresses.replay());
			}
		});
	}

	private static void checkAddress(String property, String address) {
		if (address == null || !address.matches("(tcp|ipc|inproc)://.+")) {
			throw new IllegalArgumentException(property + ": expected a ZeroMQ address such as tcp://10.0.0.5:5557, was '"
					+ address + "'");
		}
	}

	/** Where and how to read {@code endpoint}'s stream under a pool's settings. */
	static KvEventStreamSettings settings(EndpointId endpoint, PoolProperties.KvEvents kvEvents) {
		PoolProperties.Addresses override = kvEvents.addresses().get(endpoint.toString());
		String host = endpoint.host().contains(":") ? "[" + endpoint.host() + "]" : endpoint.host();
		String publisher;
		String replay;
		if (override != null) {
			publisher = override.publisher();
			replay = override.replay();
		}
		else {
			publisher = "tcp://" + host + ":" + kvEvents.port();
			replay = (kvEvents.replayPort() != null) ? "tcp://" + host + ":" + kvEvents.replayPort() : null;
		}
		return new KvEventStreamSettings(publisher, replay, kvEvents.topic(), kvEvents.replayTimeout(),
				kvEvents.staleAfter());
	}

	@Override
	public void poolRemoved(EndpointPool pool) {
		settingsByPool.remove(pool.name());
	}

	@Override
	public void endpointAdded(EndpointPool pool, Endpoint endpoint) {
		PoolProperties.KvEvents kvEvents = settingsByPool.get(pool.name());
		if (kvEvents == null && pool.settings().kvEvents().enabled()) {
			// a pool added by a configuration reload, which checked its settings
			kvEvents = settingsByPool.computeIfAbsent(pool.name(), (name) -> {
				check(name, pool.settings().kvEvents());
				return pool.settings().kvEvents();
			});
		}
		if (kvEvents != null) {
			subscriber.subscribe(endpoint.id(), settings(endpoint.id(), kvEvents));
		}
	}

	@Override
	public void endpointRemoved(EndpointPool pool, Endpoint endpoint) {
		if (settingsByPool.containsKey(pool.name())) {
			subscriber.unsubscribe(endpoint.id());
		}
	}

	/** Every subscribed stream's state. */
	public List<KvEventStreamStatus> status() {
		return subscriber.status();
	}

	@Override
	public void close() {
		subscriber.close();
	}
}
