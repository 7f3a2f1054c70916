package io.infergate.routing.kvevents;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.PoolProperties;
import io.infergate.routing.prefix.EngineBlockIndex;
import io.infergate.routing.prefix.EngineBlockIndexProperties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class KvEventSubscriptionsTests {

	@Test
	void addressesAreTheEndpointsHostWithThePoolsPorts() {
		PoolProperties.KvEvents kvEvents = kvEvents("replay-port", "5558");

		KvEventStreamSettings settings = KvEventSubscriptions.settings(new EndpointId("10.0.0.5", 8000), kvEvents);
		KvEventStreamSettings ipv6 = KvEventSubscriptions.settings(new EndpointId("fd00::5", 8000), kvEvents);

		assertThat(settings).isEqualTo(new KvEventStreamSettings("tcp://10.0.0.5:5557", "tcp://10.0.0.5:5558", "",
				Duration.ofSeconds(2), Duration.ofSeconds(5)));
		assertThat(ipv6.publisherAddress()).isEqualTo("tcp://[fd00::5]:5557");
	}

	@Test
	void withoutAReplayPortThereIsNoReplay() {
		KvEventStreamSettings settings = KvEventSubscriptions.settings(new EndpointId("10.0.0.5", 8000),
				kvEvents());

		assertThat(settings.replayAddress()).isNull();
	}

	@Test
	void anEndpointsOwnAddressesReplaceTheDerivedOnes() {
		PoolProperties.KvEvents kvEvents = kvEvents("replay-port", "5558", "addresses.[10.0.0.6:8000].publisher",
				"tcp://10.0.0.6:6000");

		KvEventStreamSettings settings = KvEventSubscriptions.settings(new EndpointId("10.0.0.6", 8000), kvEvents);

		assertThat(settings.publisherAddress()).isEqualTo("tcp://10.0.0.6:6000");
		assertThat(settings.replayAddress()).isNull();
	}

	@Test
	void badSettingsStopStartupNamingTheProperty() {
		PoolProperties.KvEvents badAddress = kvEvents("enabled", "true", "addresses.[10.0.0.6:8000].publisher",
				"10.0.0.6:6000");
		PoolProperties.KvEvents badKey = kvEvents("enabled", "true", "addresses.pod-6.publisher",
				"tcp://10.0.0.6:6000");
		PoolProperties.KvEvents badTimeout = kvEvents("enabled", "true", "replay-timeout", "0s");

		assertThatIllegalArgumentException().isThrownBy(() -> subscriptions(badAddress))
			.withMessage("infergate.pools.llama.kv-events.addresses.10.0.0.6:8000.publisher: expected a ZeroMQ"
					+ " address such as tcp://10.0.0.5:5557, was '10.0.0.6:6000'");
		assertThatIllegalArgumentException().isThrownBy(() -> subscriptions(badKey))
			.withMessageStartingWith("infergate.pools.llama.kv-events.addresses.pod-6: the key must be an endpoint's"
					+ " host:port");
		assertThatIllegalArgumentException().isThrownBy(() -> subscriptions(badTimeout))
			.withMessage("infergate.pools.llama.kv-events: replay-timeout must be positive, was PT0S");
	}

	private static void subscriptions(PoolProperties.KvEvents kvEvents) {
		PoolProperties.Pool bound = PoolProperties.Pool.of(List.of(URI.create("http://10.0.0.6:8000")), null);
		PoolProperties.Pool pool = new PoolProperties.Pool(bound.engine(), bound.endpoints(), null,
				bound.discoveryRefreshInterval(), null, bound.failureMode(), bound.scrape(), kvEvents, null,
				bound.timeouts(), bound.enginePriority());
		EngineBlockIndex index = new EngineBlockIndex(EngineBlockIndexProperties.defaults());
		new KvEventSubscriptions(new EndpointRegistry(Map.of("llama", pool)), new KvEventSubscriber(index)).close();
	}

	/** A pool's {@code kv-events} bound from its properties: name, value, name, value… */
	private static PoolProperties.KvEvents kvEvents(String... namesAndValues) {
		Map<String, String> properties = new LinkedHashMap<>();
		for (int i = 0; i < namesAndValues.length; i += 2) {
			properties.put("kv-events." + namesAndValues[i], namesAndValues[i + 1]);
		}
		return new Binder(new MapConfigurationPropertySource(properties)).bindOrCreate("kv-events",
				PoolProperties.KvEvents.class);
	}
}
