package io.infergate.routing.kvevents;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

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
		PoolProperties.KvEvents kvEvents = new PoolProperties.KvEvents();
		kvEvents.setReplayPort(5558);

		KvEventStreamSettings settings = KvEventSubscriptions.settings(new EndpointId("10.0.0.5", 8000), kvEvents);
		KvEventStreamSettings ipv6 = KvEventSubscriptions.settings(new EndpointId("fd00::5", 8000), kvEvents);

		assertThat(settings).isEqualTo(new KvEventStreamSettings("tcp://10.0.0.5:5557", "tcp://10.0.0.5:5558", "",
				Duration.ofSeconds(2), Duration.ofSeconds(5)));
		assertThat(ipv6.publisherAddress()).isEqualTo("tcp://[fd00::5]:5557");
	}

	@Test
	void withoutAReplayPortThereIsNoReplay() {
		KvEventStreamSettings settings = KvEventSubscriptions.settings(new EndpointId("10.0.0.5", 8000),
				new PoolProperties.KvEvents());

		assertThat(settings.replayAddress()).isNull();
	}

	@Test
	void anEndpointsOwnAddressesReplaceTheDerivedOnes() {
		PoolProperties.KvEvents kvEvents = new PoolProperties.KvEvents();
		kvEvents.setReplayPort(5558);
		kvEvents.setAddresses(Map.of("10.0.0.6:8000", addresses("tcp://10.0.0.6:6000", null)));

		KvEventStreamSettings settings = KvEventSubscriptions.settings(new EndpointId("10.0.0.6", 8000), kvEvents);

		assertThat(settings.publisherAddress()).isEqualTo("tcp://10.0.0.6:6000");
		assertThat(settings.replayAddress()).isNull();
	}

	@Test
	void badSettingsStopStartupNamingTheProperty() {
		PoolProperties.KvEvents badAddress = new PoolProperties.KvEvents();
		badAddress.setEnabled(true);
		badAddress.setAddresses(Map.of("10.0.0.6:8000", addresses("10.0.0.6:6000", null)));
		PoolProperties.KvEvents badKey = new PoolProperties.KvEvents();
		badKey.setEnabled(true);
		badKey.setAddresses(Map.of("pod-6", addresses("tcp://10.0.0.6:6000", null)));
		PoolProperties.KvEvents badTimeout = new PoolProperties.KvEvents();
		badTimeout.setEnabled(true);
		badTimeout.setReplayTimeout(Duration.ZERO);

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
		PoolProperties.Pool pool = new PoolProperties.Pool();
		pool.setEndpoints(List.of(URI.create("http://10.0.0.6:8000")));
		pool.setKvEvents(kvEvents);
		EngineBlockIndex index = new EngineBlockIndex(EngineBlockIndexProperties.defaults());
		new KvEventSubscriptions(new EndpointRegistry(Map.of("llama", pool)), new KvEventSubscriber(index)).close();
	}

	private static PoolProperties.Addresses addresses(String publisher, String replay) {
		PoolProperties.Addresses addresses = new PoolProperties.Addresses();
		addresses.setPublisher(publisher);
		addresses.setReplay(replay);
		return addresses;
	}
}
