package io.infergate.routing.replica;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.pool.EndpointPool;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.prefix.PrefixHashes;
import io.infergate.routing.prefix.PrefixIndex;
import io.infergate.routing.prefix.RecordedDispatchListener;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.config.SchedulingProfiles;
import io.infergate.routing.scheduling.scorer.SessionAffinityScorer;

/**
 * Shared dispatch memory: every gateway replica tells the others what its own decisions sent where, and records what
 * they sent in its own {@link PrefixIndex}, so the replicas' approximate indexes converge on the index one gateway
 * carrying all the traffic would have.
 * <ul>
 * <li><b>Out</b>: each dispatch the index records ({@link RecordedDispatchListener}) is encoded as a
 * {@link PeerDispatch} and published on the {@link DispatchChannel}, on the scheduling thread, without waiting.</li>
 * <li><b>In</b>: a peer's dispatch is recorded with {@link PrefixIndex#record} as if this replica had made it, unless
 * it is this replica's own (the channel echoes it) or names an endpoint that this replica's pool does not have (so
 * an endpoint the local registry removed is never brought back into the index).</li>
 * </ul>
 * Sessions travel the same way ({@link #withSessions}): each dispatch of a request with a session that a
 * {@link SessionAffinityScorer} records is published as a {@link PeerSession}, and a peer's is recorded in every
 * session scorer, so a session's turns find its endpoint whichever replica they reach. While the channel is down a
 * replica knows only the sessions it dispatched itself; the others score 0 for session affinity and go where the
 * profile's other scorers send them.
 * <p>
 * A replica's id is random per start. What the index records from peers is not counted in its prediction figures:
 * those stay this replica's own. The channel belongs to whoever created it, who also closes it.
 */
public final class DispatchSharing implements RecordedDispatchListener, SessionAffinityScorer.SessionListener {

	private static final Log logger = LogFactory.getLog(DispatchSharing.class);

	private final PrefixIndex index;

	private final DispatchChannel channel;

	private final EndpointRegistry registry;

	private final long replica;

	/** The session scorers whose sessions this replica shares; replaced when a reload rebuilds the profiles. */
	private volatile List<SessionAffinityScorer> sessions = List.of();

	private SchedulingProfiles sessionProfiles;

	private final LongAdder published = new LongAdder();

	private final LongAdder publishFailures = new LongAdder();

	private final LongAdder received = new LongAdder();

	private final LongAdder applied = new LongAdder();

	private final LongAdder rejected = new LongAdder();

	/**
	 * @param registry the pools whose endpoints a peer's dispatch may name, or {@code null} to accept any endpoint
	 */
	public DispatchSharing(PrefixIndex index, DispatchChannel channel, EndpointRegistry registry) {
		this(index, channel, registry, ThreadLocalRandom.current().nextLong());
	}

	DispatchSharing(PrefixIndex index, DispatchChannel channel, EndpointRegistry registry, long replica) {
		this.index = index;
		this.channel = channel;
		this.registry = registry;
		this.replica = replica;
	}

	/** Shares the sessions of these scorers too; call before {@link #start()}. */
	public DispatchSharing withSessions(Collection<SessionAffinityScorer> scorers) {
		sessions = List.copyOf(scorers);
		return this;
	}

	/**
	 * Shares the sessions of every {@link SessionAffinityScorer} instance of {@code profiles}, and of the new
	 * instances whenever a configuration reload rebuilds them; call before {@link #start()}.
	 */
	public DispatchSharing withSessionsOf(SchedulingProfiles profiles) {
		sessionProfiles = profiles;
		return withSessions(sessionScorers(profiles));
	}

	private static List<SessionAffinityScorer> sessionScorers(SchedulingProfiles profiles) {
		List<SessionAffinityScorer> scorers = new ArrayList<>();
		for (EndpointScorer scorer : profiles.plugins(EndpointScorer.class).values()) {
			if (scorer instanceof SessionAffinityScorer session) {
				scorers.add(session);
			}
		}
		return scorers;
	}

	/** Starts hearing peers and telling them; call once. */
	public DispatchSharing start() {
		channel.subscribe(this::receive);
		index.addRecordedDispatchListener(this);
		for (SessionAffinityScorer scorer : sessions) {
			scorer.addSessionListener(this);
		}
		if (sessionProfiles != null) {
			sessionProfiles.addReplacementListener((profiles) -> {
				List<SessionAffinityScorer> scorers = sessionScorers(profiles);
				scorers.forEach((scorer) -> scorer.addSessionListener(this));
				sessions = scorers;
			});
		}
		return this;
	}

	public long replica() {
		return replica;
	}

	@Override
	public void recorded(String pool, EndpointId endpoint, PrefixHashes hashes) {
		publish(() -> new PeerDispatch(replica, pool, endpoint, hashes).encode(), endpoint);
	}

	@Override
	public void sessionDispatched(String pool, long sessionKeyHash, EndpointId endpoint) {
		publish(() -> new PeerSession(replica, pool, endpoint, sessionKeyHash).encode(), endpoint);
	}

	private void publish(Supplier<byte[]> message, EndpointId endpoint) {
		try {
			channel.publish(message.get());
			published.increment();
		}
		catch (RuntimeException ex) {
			// sharing is best effort: a dispatch must never fail because a peer cannot hear of it
			publishFailures.increment();
			if (logger.isDebugEnabled()) {
				logger.debug("Could not share a dispatch to " + endpoint, ex);
			}
		}
	}

	/**
	 * Records a peer's dispatch in the index, or its session in the session scorers; ignores this replica's own,
	 * unknown endpoints and malformed bytes.
	 */
	void receive(byte[] message) {
		received.increment();
		if (PeerSession.isSession(message)) {
			apply(message, "session", PeerSession::decode, PeerSession::replica, PeerSession::pool,
					PeerSession::endpoint, (session) -> {
						for (SessionAffinityScorer scorer : sessions) {
							scorer.recordPeer(session.pool(), session.sessionKeyHash(), session.endpoint());
						}
					});
		}
		else {
			apply(message, "dispatch", PeerDispatch::decode, PeerDispatch::replica, PeerDispatch::pool,
					PeerDispatch::endpoint, (dispatch) -> index.record(dispatch.hashes(), dispatch.endpoint()));
		}
	}

	/** Decodes a peer's message and records it, unless malformed, this replica's own, or for an unknown endpoint. */
	private <M> void apply(byte[] message, String kind, Function<byte[], M> decode, ToLongFunction<M> sender,
			Function<M, String> pool, Function<M, EndpointId> endpoint, Consumer<M> record) {
		M decoded;
		try {
			decoded = decode.apply(message);
		}
		catch (IllegalArgumentException ex) {
			rejected.increment();
			if (logger.isDebugEnabled()) {
				logger.debug("Ignoring a malformed peer " + kind + ": " + ex.getMessage());
			}
			return;
		}
		if (sender.applyAsLong(decoded) == replica) {
			return;
		}
		if (!knows(pool.apply(decoded), endpoint.apply(decoded))) {
			rejected.increment();
			return;
		}
		record.accept(decoded);
		applied.increment();
	}

	private boolean knows(String poolName, EndpointId endpoint) {
		if (registry == null) {
			return true;
		}
		EndpointPool pool = registry.pool(poolName);
		if (pool == null) {
			return false;
		}
		List<Endpoint> endpoints = pool.endpoints();
		for (int i = 0, n = endpoints.size(); i < n; i++) {
			if (endpoints.get(i).id().equals(endpoint)) {
				return true;
			}
		}
		return false;
	}

	public DispatchSharingStats stats() {
		return new DispatchSharingStats(published.sum(), publishFailures.sum(), received.sum(), applied.sum(),
				rejected.sum());
	}
}
