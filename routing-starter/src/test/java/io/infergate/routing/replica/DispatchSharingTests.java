package io.infergate.routing.replica;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Arrays;
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
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.config.SchedulingProfiles;
import io.infergate.routing.scheduling.config.SchedulingProperties;
import io.infergate.routing.scheduling.load.InFlightLoad;
import io.infergate.routing.scheduling.picker.MaxScorePicker;
import io.infergate.routing.scheduling.scorer.SessionAffinityScorer;

import static io.infergate.routing.prefix.PrefixFixtures.prompt;
import static io.infergate.routing.prefix.PrefixFixtures.request;
import static io.infergate.routing.scheduling.Fixtures.POOL;
import static io.infergate.routing.scheduling.Fixtures.cycle;
import static io.infergate.routing.scheduling.Fixtures.score;
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

	@Test
	void aSessionDispatchedByOneReplicaIsFoundByTheOthersUnderItsHashOnly() {
		a.sessions.onDispatch(cycle(session("conversation-7")), a.pod(1));

		assertThat(score(b.sessions, cycle(session("conversation-7")), b.registry.pool(POOL).endpoints()))
			.containsExactly(0.0, 1.0);
		assertThat(new String(channel.sent.get(0), StandardCharsets.ISO_8859_1)).doesNotContain("conversation-7");
		assertThat(b.sharing.stats()).isEqualTo(new DispatchSharingStats(0, 0, 1, 1, 0));
		assertThat(a.sharing.stats()).isEqualTo(new DispatchSharingStats(1, 0, 1, 0, 0));
	}

	@Test
	void aPeerSessionOnAnUnknownEndpointOrTruncatedIsRejected() {
		long hash = SessionAffinityScorer.hashKey("conversation-7");
		channel.publish(new PeerSession(1, POOL, new Endpoint(POOL, URI.create("http://10.0.0.9:8001")).id(), hash)
			.encode());
		byte[] whole = new PeerSession(1, POOL, b.pod(0).id(), hash).encode();
		channel.publish(Arrays.copyOf(whole, whole.length - 3));

		assertThat(b.sessions.sessionCount()).isZero();
		assertThat(b.sharing.stats()).isEqualTo(new DispatchSharingStats(0, 0, 2, 0, 2));
	}

	@Test
	void aPeerSessionRoundTrips() {
		PeerSession session = new PeerSession(-5, "pöol", a.pod(1).id(), Long.MIN_VALUE);

		assertThat(PeerSession.decode(session.encode())).isEqualTo(session);
		assertThat(PeerSession.isSession(session.encode())).isTrue();
		assertThat(PeerSession.isSession(new PeerDispatch(1, POOL, a.pod(0).id(),
				a.index.hash(request(prompt("system", 1)))).encode())).isFalse();
	}

	@Test
	void sessionsStillTravelAfterAReloadRebuildsTheSessionScorers() {
		SchedulingProfiles profilesA = sessionProfiles();
		SchedulingProfiles profilesB = sessionProfiles();
		Broadcast reloadChannel = new Broadcast();
		EndpointRegistry registry = new EndpointRegistry(Map.of(POOL, PoolProperties.Pool.of(PODS, null)));
		registry.sync(POOL, PODS);
		new DispatchSharing(new PrefixIndex(PrefixIndexProperties.defaults()), reloadChannel, registry, 1)
			.withSessionsOf(profilesA).start();
		new DispatchSharing(new PrefixIndex(PrefixIndexProperties.defaults()), reloadChannel, registry, 2)
			.withSessionsOf(profilesB).start();

		profilesA.replaceWith(sessionProfiles());
		profilesB.replaceWith(sessionProfiles());
		sessionScorer(profilesA).onDispatch(cycle(session("after-reload")), registry.pool(POOL).endpoints().get(1));

		assertThat(sessionScorer(profilesB).endpointOf(POOL, "after-reload"))
			.isEqualTo(registry.pool(POOL).endpoints().get(1).id());
	}

	private static SchedulingProfiles sessionProfiles() {
		SchedulingProperties properties = new SchedulingProperties("sticky", Map.of("sticky",
				new SchedulingProperties.Profile(List.of(), Map.of(SessionAffinityScorer.NAME, 1.0), "max-score", null)),
				Map.of());
		return new SchedulingProfiles(properties, List.of(new SessionAffinityScorer.Type(Clock.systemUTC())),
				List.of(new MaxScorePicker(), new InFlightLoad()));
	}

	private static SessionAffinityScorer sessionScorer(SchedulingProfiles profiles) {
		return (SessionAffinityScorer) profiles.plugins(EndpointScorer.class).get(SessionAffinityScorer.NAME);
	}

	private static InferenceRequest session(String key) {
		return new InferenceRequest("demo-llama", POOL, "meta-llama/Llama-3.1-8B-Instruct", null, "Hello there", 3,
				64, false, key, 0);
	}

	/** One gateway replica: its own registry, index and sharing, on the shared channel. */
	private final class Replica {

		final EndpointRegistry registry;

		final PrefixIndex index = new PrefixIndex(PrefixIndexProperties.defaults());

		final SessionAffinityScorer sessions = new SessionAffinityScorer(SessionAffinityScorer.NAME,
				SessionAffinityScorer.Parameters.defaults(), Clock.systemUTC());

		final DispatchSharing sharing;

		Replica(long id) {
			PoolProperties.Pool pool = PoolProperties.Pool.of(PODS, null);
			registry = new EndpointRegistry(Map.of(POOL, pool));
			registry.sync(POOL, PODS);
			sharing = new DispatchSharing(index, channel, registry, id).withSessions(List.of(sessions)).start();
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
