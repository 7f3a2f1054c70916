package io.infergate.routing.scheduling.scorer;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;

import org.hibernate.validator.constraints.time.DurationMin;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.scheduling.DispatchListener;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.PluginType;
import io.infergate.routing.scheduling.SchedulingCycle;

import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.stereotype.Component;

/**
 * {@code session-affinity}: sends a session back to the endpoint that served its previous request, where its
 * conversation is most likely still cached.
 * <p>
 * {@code score = 1} for the candidate that last served the request's session ({@link InferenceRequest#sessionKey()}
 * within the request's pool), 0 for every other. A request without a session, or whose session is unknown or expired,
 * scores 0 everywhere: equal scores change no pick, and 0 rather than 1 keeps the other scorers' totals where they
 * would be without this one. Every dispatch of a request with a session remembers its endpoint.
 * <p>
 * The session map is bounded: at most {@code max-sessions} entries (Caffeine size eviction), each expiring
 * {@code ttl} after its last dispatch. Expiry reads the context's {@link Clock}, so virtual time in the bench harness
 * expires sessions too. Sessions pointing at a removed endpoint need no purge: that endpoint is never a candidate
 * again, and the session's next dispatch replaces it.
 * <p>
 * Sessions are keyed by pool and the 64-bit XXH3 hash of the session key, never the key itself. Gateway replicas share
 * them through {@link io.infergate.routing.replica.DispatchSharing}: each dispatch is told to the
 * {@link SessionListener}s, and a peer's is recorded with {@link #recordPeer}, so a session's next turn finds its
 * endpoint whichever replica it reaches. A peer's record is a dispatch like this replica's own: it refreshes the
 * session's expiry.
 * <p>
 * Parameters (of the predefined instance: {@code infergate.scheduling.plugins.session-affinity.*}); each instance
 * remembers its own sessions: {@code ttl} (≥ 1 s, default 30m),
 * {@code max-sessions} (> 0, default 100000).
 */
public final class SessionAffinityScorer implements EndpointScorer, DispatchListener {

	public static final String NAME = "session-affinity";

	private final String name;

	private final Parameters parameters;

	private static final Hasher64 XXH3 = Hashing.xxh3_64();

	private final Cache<Session, EndpointId> sessions;

	private final List<SessionListener> listeners = new CopyOnWriteArrayList<>();

	public SessionAffinityScorer(String name, Parameters config, Clock clock) {
		this.name = name;
		this.parameters = config;
		this.sessions = Caffeine.newBuilder()
			.maximumSize(config.maxSessions())
			.expireAfterWrite(config.ttl())
			.ticker(() -> clock.millis() * 1_000_000L)
			.executor(Runnable::run)
			.build();
	}

	@Override
	public String name() {
		return name;
	}

	public Parameters parameters() {
		return parameters;
	}

	@Override
	public void score(SchedulingCycle cycle, List<Endpoint> candidates, double[] scores) {
		Session session = Session.of(cycle.request());
		if (session == null) {
			return;
		}
		EndpointId last = sessions.getIfPresent(session);
		if (last == null) {
			return;
		}
		for (int i = 0, n = candidates.size(); i < n; i++) {
			if (candidates.get(i).id().equals(last)) {
				scores[i] = 1;
			}
		}
	}

	@Override
	public void onDispatch(SchedulingCycle cycle, Endpoint chosen) {
		Session session = Session.of(cycle.request());
		if (session != null) {
			sessions.put(session, chosen.id());
			for (SessionListener listener : listeners) {
				listener.sessionDispatched(session.pool(), session.keyHash(), chosen.id());
			}
		}
	}

	/** Tells {@code listener} of every dispatch of a request with a session, on the scheduling thread. */
	public void addSessionListener(SessionListener listener) {
		listeners.add(listener);
	}

	/** Records a session's dispatch made by another gateway replica. */
	public void recordPeer(String pool, long sessionKeyHash, EndpointId endpoint) {
		sessions.put(new Session(pool, sessionKeyHash), endpoint);
	}

	/** The hash a session key is remembered, and shared, by. */
	public static long hashKey(String sessionKey) {
		return XXH3.hashCharsToLong(sessionKey);
	}

	/** Hears each dispatch of a request with a session. */
	@FunctionalInterface
	public interface SessionListener {

		void sessionDispatched(String pool, long sessionKeyHash, EndpointId endpoint);
	}

	/** The endpoint this replica would send {@code sessionKey}'s next turn in {@code pool} to, or null. */
	public EndpointId endpointOf(String pool, String sessionKey) {
		return sessions.getIfPresent(new Session(pool, hashKey(sessionKey)));
	}

	/** Sessions remembered, after pending expiry and eviction have run. */
	public long sessionCount() {
		sessions.cleanUp();
		return sessions.estimatedSize();
	}

	/** A session is scoped to its pool: one key used in two pools names two conversations. */
	private record Session(String pool, long keyHash) {

		static Session of(InferenceRequest request) {
			String key = request.sessionKey();
			return (key == null || key.isEmpty()) ? null : new Session(request.pool(), hashKey(key));
		}
	}

	/**
	 * Parameters of {@code session-affinity}.
	 *
	 * @param ttl how long after its last dispatch a session is forgotten; at least 1 s; default 30 minutes
	 * @param maxSessions sessions remembered at most; default 100,000
	 */
	public record Parameters(@DefaultValue("30m") @NotNull @DurationMin(seconds = 1) Duration ttl,
			@DefaultValue("100000") @Positive long maxSessions) {

		public static Parameters defaults() {
			return new Parameters(Duration.ofMinutes(30), 100_000);
		}
	}

	/** The {@code session-affinity} type. */
	@Component
	public static final class Type extends PluginType<EndpointScorer, Parameters> {

		private final Clock clock;

		public Type(Clock clock) {
			super(EndpointScorer.class, NAME, Parameters.class);
			this.clock = clock;
		}

		@Override
		public EndpointScorer create(String name, Parameters parameters) {
			return new SessionAffinityScorer(name, parameters, clock);
		}
	}
}
