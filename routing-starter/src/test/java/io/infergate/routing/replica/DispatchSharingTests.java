package io.infergate.routing.replica;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.PoolProperties;
import io.infergate.routing.prefix.PrefixHashes;
import io.infergate.routing.prefix.PrefixIndex;
import io.infergate.routing.prefix.PrefixIndexProperties;

import static io.infergate.routing.prefix.PrefixFixtures.prompt;
import static io.infergate.routing.prefix.PrefixFixtures.request;
import static io.infergate.routing.scheduling.Fixtures.POOL;
import static io.infergate.routing.scheduling.Fixtures.cycle;
import static org.assertj.core.api.Assertions.assertThat;

class DispatchSharingTests {

	private static final List<URI> PODS = List.of(URI.create("http://10.0.0.1:8001"),
			URI.create("http://10.0.0.1:8002"));

	private final Broadcast channel = new Broadcast();

	private final Replica a = new Replica(1);

	private final Replica b = new Replica(2);

	@Test
	void aPeersDispatchIsRecordedAsIfThisReplicaHadMadeIt() {
		String system = prompt("system", 6);

		a.index.onDispatch(cycle(request(system)), a.pod(1));

		PrefixHashes hashes = b.index.hash(request(system));
		assertThat(b.index.matchedBlocks(hashes, a.pod(1).id())).isEqualTo(6);
		assertThat(b.index.matchedBlocks(hashes, a.pod(0).id())).isZero();
		assertThat(b.index.stats().dispatchedRequests()).as("peers' dispatches are not b's own").isZero();
		assertThat(b.sharing.stats()).isEqualTo(new DispatchSharingStats(0, 0, 1, 1, 0));
	}

	@Test
	void ignoresItsOwnEchoAndTellsPeersOnlyOnce() {
		a.index.onDispatch(cycle(request(prompt("system", 3))), a.pod(0));

		assertThat(channel.sent).hasSize(1);
		assertThat(a.sharing.stats()).isEqualTo(new DispatchSharingStats(1, 0, 1, 0, 0));
		assertThat(a.index.stats().dispatchedRequests()).isEqualTo(1);
	}

	@Test
	void ignoresAnEndpointItsPoolDoesNotHaveAndMalformedBytes() {
		PrefixHashes hashes = b.index.hash(request(prompt("system", 3)));
		channel.publish(new PeerDispatch(1, POOL, new Endpoint(POOL, URI.create("http://10.0.0.9:8001")).id(), hashes)
			.encode());
		channel.publish(new PeerDispatch(1, "other-pool", b.pod(0).id(), hashes).encode());
		channel.publish(new byte[] { 1, 2, 3 });

		assertThat(b.index.stats().entries()).isZero();
		assertThat(b.sharing.stats()).isEqualTo(new DispatchSharingStats(0, 0, 3, 0, 3));
	}

	@Test
	void aChannelThatRefusesAMessageNeverFailsTheDispatch() {
		channel.refusing = true;

		a.index.onDispatch(cycle(request(prompt("system", 3))), a.pod(0));

		assertThat(a.index.matchedBlocks(a.index.hash(request(prompt("system", 3))), a.pod(0).id())).isEqualTo(3);
		assertThat(a.sharing.stats().publishFailures()).isEqualTo(1);
	}

	/** One gateway replica: its own registry, index and sharing, on the shared channel. */
	private final class Replica {

		final EndpointRegistry registry;

		final PrefixIndex index = new PrefixIndex(PrefixIndexProperties.defaults());

		final DispatchSharing sharing;

		Replica(long id) {
			PoolProperties.Pool pool = PoolProperties.Pool.of(PODS, null);
			registry = new EndpointRegistry(Map.of(POOL, pool));
			registry.sync(POOL, PODS);
			sharing = new DispatchSharing(index, channel, registry, id).start();
		}

		Endpoint pod(int i) {
			return registry.pool(POOL).endpoints().get(i);
		}
	}

	/** Delivers every message at once to every subscriber, the sender included, as Redis pub/sub does. */
	private static final class Broadcast implements DispatchChannel {

		final List<Consumer<byte[]>> receivers = new ArrayList<>();

		final List<byte[]> sent = new ArrayList<>();

		boolean refusing;

		@Override
		public void publish(byte[] message) {
			if (refusing) {
				throw new IllegalStateException("not connected");
			}
			sent.add(message);
			receivers.forEach((receiver) -> receiver.accept(message));
		}

		@Override
		public void subscribe(Consumer<byte[]> receiver) {
			receivers.add(receiver);
		}

		@Override
		public void close() {
		}
	}
}
