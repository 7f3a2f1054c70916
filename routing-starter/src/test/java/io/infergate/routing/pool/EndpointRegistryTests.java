package io.infergate.routing.pool;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.infergate.routing.endpoint.Endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class EndpointRegistryTests {

	private static final PoolProperties.Pool STATIC = PoolProperties.Pool.of(List.of(URI.create("http://10.0.0.1:8000")),
			null);

	/** Every event, in order, as {@code event pool[/endpoint]}. */
	private static final class Events implements EndpointLifecycleListener {

		final List<String> seen = new ArrayList<>();

		@Override
		public void endpointAdded(EndpointPool pool, Endpoint endpoint) {
			seen.add("endpointAdded " + pool.name() + "/" + endpoint.id());
		}

		@Override
		public void endpointRemoved(EndpointPool pool, Endpoint endpoint) {
			seen.add("endpointRemoved " + pool.name() + "/" + endpoint.id());
		}

		@Override
		public void poolAdded(EndpointPool pool) {
			seen.add("poolAdded " + pool.name() + " with " + pool.endpoints().size());
		}

		@Override
		public void poolRemoved(EndpointPool pool) {
			seen.add("poolRemoved " + pool.name() + " with " + pool.endpoints().size());
		}
	}

	@Test
	void aPoolAddedIsToldWithoutEndpointsAndThenFollowsDiscovery() {
		EndpointRegistry registry = new EndpointRegistry(Map.of("first", STATIC));
		Events events = new Events();
		registry.addListener(events);

		EndpointPool added = registry.addPool("second", STATIC);
		registry.sync("second", List.of(URI.create("http://10.0.0.2:8000")));

		assertThat(registry.pool("second")).isSameAs(added);
		assertThat(registry.pools()).extracting(EndpointPool::name).containsExactly("first", "second");
		assertThat(events.seen).containsExactly("poolAdded second with 0", "endpointAdded second/10.0.0.2:8000");
	}

	@Test
	void aPoolIsNotAddedTwiceNorUnderAnInvalidName() {
		EndpointRegistry registry = new EndpointRegistry(Map.of("first", STATIC));

		assertThatIllegalArgumentException().isThrownBy(() -> registry.addPool("first", STATIC))
			.withMessage("pool 'first' exists");
		assertThatIllegalArgumentException().isThrownBy(() -> registry.addPool("not_a_label", STATIC))
			.withMessageContaining("infergate.pools.not_a_label: a pool name must be a host name label");
		assertThat(EndpointRegistry.problems("both",
				new PoolProperties.Pool(EngineType.VLLM, STATIC.endpoints(), "svc", STATIC.discoveryRefreshInterval(),
						null, FailureMode.FAIL_CLOSE, null, null, null, null, null)))
			.containsExactly("infergate.pools.both: set exactly one of 'endpoints' (a static list), "
					+ "'discovery-service-id' or 'inference-pool'");
	}

	@Test
	void anInferencePoolIsAThirdSourceOfEndpointsExclusiveWithTheOthers() {
		PoolProperties.Pool discovered = new PoolProperties.Pool(EngineType.VLLM, List.of(), "svc",
				STATIC.discoveryRefreshInterval(), null, FailureMode.FAIL_CLOSE, null, null, null, null, null, null,
				"models/llama");

		assertThat(EndpointRegistry.problems("both", discovered)).containsExactly("infergate.pools.both: set exactly "
				+ "one of 'endpoints' (a static list), 'discovery-service-id' or 'inference-pool'");
		assertThat(EndpointRegistry.problems("gie", inferencePool("models/llama"))).isEmpty();
		assertThat(EndpointRegistry.problems("gie", inferencePool("llama-3.1"))).isEmpty();
		assertThat(EndpointRegistry.problems("gie", inferencePool("a/b/c"))).containsExactly(
				"infergate.pools.gie.inference-pool: must be <name> or <namespace>/<name> (Kubernetes object names), "
						+ "got 'a/b/c'");
	}

	private static PoolProperties.Pool inferencePool(String reference) {
		return new PoolProperties.Pool(EngineType.VLLM, List.of(), null, STATIC.discoveryRefreshInterval(), null,
				FailureMode.FAIL_CLOSE, null, null, null, null, null, null, reference);
	}

	@Test
	void aRetiringPoolKeepsItsEndpointsUntilRemovedThenEachEndpointAndThePoolAreToldGone() {
		EndpointRegistry registry = new EndpointRegistry(Map.of("first", STATIC));
		registry.sync("first", List.of(URI.create("http://10.0.0.1:8000"), URI.create("http://10.0.0.1:8001")));
		Events events = new Events();
		registry.addListener(events);

		registry.retire("first");

		EndpointPool pool = registry.pool("first");
		assertThat(pool.isRetiring()).isTrue();
		assertThat(pool.endpoints()).hasSize(2);
		assertThat(events.seen).isEmpty();

		registry.removePool("first");

		assertThat(registry.pool("first")).isNull();
		assertThat(registry.pools()).isEmpty();
		assertThat(pool.endpoints()).isEmpty();
		assertThat(events.seen).containsExactly("endpointRemoved first/10.0.0.1:8000",
				"endpointRemoved first/10.0.0.1:8001", "poolRemoved first with 0");
	}

	@Test
	void aRetiringPoolConfiguredAgainServesAgain() {
		EndpointRegistry registry = new EndpointRegistry(Map.of("first", STATIC));
		registry.retire("first");

		registry.reconfigure("first", STATIC.withEnginePriority(EnginePriority.NONE));

		assertThat(registry.pool("first").isRetiring()).isFalse();
	}
}
