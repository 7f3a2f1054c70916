package io.infergate.routing.discovery;

import java.net.URI;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Sinks;

import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;

import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.PoolProperties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class PoolEndpointSynchronizerTests {

	private static final PoolProperties.Pool DISCOVERED = new PoolProperties.Pool(null, null, "svc",
			java.time.Duration.ofSeconds(5), null, null, null, null, null, null, null);

	/** Each pool's discovery: a sink its test emits instance lists into. */
	private final Map<String, Sinks.Many<List<ServiceInstance>>> discovery = Map.of("first",
			Sinks.many().replay().latest(), "second", Sinks.many().replay().latest());

	private ServiceInstanceListSupplier source(String pool) {
		Sinks.Many<List<ServiceInstance>> sink = discovery.get(pool);
		if (sink == null) {
			throw new IllegalStateException("no discovery for " + pool);
		}
		return new ServiceInstanceListSupplier() {

			@Override
			public String getServiceId() {
				return pool;
			}

			@Override
			public reactor.core.publisher.Flux<List<ServiceInstance>> get() {
				return sink.asFlux();
			}
		};
	}

	private void discover(String pool, String... uris) {
		discovery.get(pool)
			.tryEmitNext(java.util.Arrays.stream(uris)
				.map(URI::create)
				.map((uri) -> PoolInstanceSuppliers.toInstance(pool, EndpointId.of(uri), uri))
				.toList());
	}

	@Test
	void aPoolAddedWhileRunningFollowsItsDiscoveryUntilRemoved() {
		EndpointRegistry registry = new EndpointRegistry(Map.of("first", DISCOVERED));
		PoolEndpointSynchronizer synchronizer = new PoolEndpointSynchronizer(registry, (name, pool) -> source(name));
		synchronizer.start();
		discover("first", "http://10.0.0.1:8000");

		registry.addPool("second", DISCOVERED);
		discover("second", "http://10.0.0.2:8000", "http://10.0.0.2:8001");

		assertThat(registry.pool("first").endpoints()).hasSize(1);
		assertThat(registry.pool("second").endpoints()).hasSize(2);

		registry.removePool("second");
		discover("second", "http://10.0.0.2:8002");

		assertThat(registry.pool("second")).isNull();
		assertThat(discovery.get("second").currentSubscriberCount()).isZero();
		assertThat(synchronizer.isRunning()).isTrue();
		synchronizer.stop();
		assertThat(discovery.get("first").currentSubscriberCount()).isZero();
	}

	@Test
	void aPoolWhoseSourceIsUnavailableIsAProblemAndFailsTheStart() {
		EndpointRegistry registry = new EndpointRegistry(Map.of("first", DISCOVERED));
		PoolEndpointSynchronizer synchronizer = new PoolEndpointSynchronizer(registry, (name, pool) -> source(name));

		assertThat(synchronizer.problem("third", DISCOVERED)).isEqualTo("no discovery for third");
		assertThat(synchronizer.problem("first", DISCOVERED)).isNull();
		EndpointRegistry unavailable = new EndpointRegistry(Map.of("third", DISCOVERED));
		assertThatIllegalStateException()
			.isThrownBy(() -> new PoolEndpointSynchronizer(unavailable, (name, pool) -> source(name)));
	}
}
