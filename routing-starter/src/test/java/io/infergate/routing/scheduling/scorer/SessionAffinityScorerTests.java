package io.infergate.routing.scheduling.scorer;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.request.InferenceRequest;

import static io.infergate.routing.scheduling.Fixtures.cycle;
import static io.infergate.routing.scheduling.Fixtures.endpoint;
import static io.infergate.routing.scheduling.Fixtures.score;
import static org.assertj.core.api.Assertions.assertThat;

class SessionAffinityScorerTests {

	private final ManualClock clock = new ManualClock();

	private final SessionAffinityScorer scorer = new SessionAffinityScorer(SessionAffinityScorer.NAME, 
			new SessionAffinityScorer.Parameters(Duration.ofMinutes(30), 100), clock);

	private final Endpoint first = endpoint(1);

	private final Endpoint second = endpoint(2);

	private final Endpoint third = endpoint(3);

	private final List<Endpoint> candidates = List.of(first, second, third);

	@Test
	void nameIsTheYamlKey() {
		assertThat(scorer.name()).isEqualTo(SessionAffinityScorer.NAME).isEqualTo("session-affinity");
	}

	@Test
	void aSessionGoesBackToTheEndpointThatServedIt() {
		scorer.onDispatch(cycle(request("llama", "conversation-1")), second);

		assertThat(score(scorer, cycle(request("llama", "conversation-1")), candidates)).containsExactly(0.0, 1.0,
				0.0);
	}

	@Test
	void theLastDispatchWins() {
		scorer.onDispatch(cycle(request("llama", "conversation-1")), second);
		scorer.onDispatch(cycle(request("llama", "conversation-1")), third);

		assertThat(score(scorer, cycle(request("llama", "conversation-1")), candidates)).containsExactly(0.0, 0.0,
				1.0);
	}

	@Test
	void noSessionOrAnUnknownOneScoresZeroEverywhere() {
		scorer.onDispatch(cycle(request("llama", null)), second);

		assertThat(score(scorer, cycle(request("llama", null)), candidates)).containsExactly(0.0, 0.0, 0.0);
		assertThat(score(scorer, cycle(request("llama", "new")), candidates)).containsExactly(0.0, 0.0, 0.0);
		assertThat(scorer.sessionCount()).isZero();
	}

	@Test
	void theSameKeyInAnotherPoolIsAnotherSession() {
		scorer.onDispatch(cycle(request("llama", "conversation-1")), second);

		assertThat(score(scorer, cycle(request("mistral", "conversation-1")), candidates)).containsExactly(0.0, 0.0,
				0.0);
	}

	@Test
	void aSessionExpiresItsTtlAfterItsLastDispatch() {
		scorer.onDispatch(cycle(request("llama", "conversation-1")), second);
		clock.advance(Duration.ofMinutes(20));
		scorer.onDispatch(cycle(request("llama", "conversation-1")), second);

		clock.advance(Duration.ofMinutes(29));
		assertThat(score(scorer, cycle(request("llama", "conversation-1")), candidates)).containsExactly(0.0, 1.0,
				0.0);

		clock.advance(Duration.ofMinutes(1).plusMillis(1));
		assertThat(score(scorer, cycle(request("llama", "conversation-1")), candidates)).containsExactly(0.0, 0.0,
				0.0);
		assertThat(scorer.sessionCount()).isZero();
	}

	@Test
	void tellsListenersTheSessionsHashAndRecordsAPeersDispatchLikeItsOwn() {
		List<String> told = new ArrayList<>();
		scorer.addSessionListener((pool, hash, endpoint) -> told.add(pool + " " + hash + " " + endpoint));

		scorer.onDispatch(cycle(request("llama", "conversation-1")), second);
		scorer.onDispatch(cycle(request("llama", null)), first);

		assertThat(told).containsExactly("llama " + SessionAffinityScorer.hashKey("conversation-1") + " " + second.id());
		assertThat(told.get(0)).doesNotContain("conversation-1");

		scorer.recordPeer("llama", SessionAffinityScorer.hashKey("conversation-2"), third.id());
		assertThat(score(scorer, cycle(request("llama", "conversation-2")), candidates)).containsExactly(0.0, 0.0,
				1.0);
		assertThat(score(scorer, cycle(request("mistral", "conversation-2")), candidates)).containsExactly(0.0, 0.0,
				0.0);
		clock.advance(Duration.ofMinutes(30).plusMillis(1));
		assertThat(score(scorer, cycle(request("llama", "conversation-2")), candidates)).containsExactly(0.0, 0.0,
				0.0);
	}

	@Test
	void remembersAtMostMaxSessions() {
		for (int i = 0; i < 1_000; i++) {
			scorer.onDispatch(cycle(request("llama", "conversation-" + i)), first);
		}

		assertThat(scorer.sessionCount()).isLessThanOrEqualTo(100);
	}

	private static InferenceRequest request(String pool, String sessionKey) {
		return new InferenceRequest("demo-llama", pool, "meta-llama/Llama-3.1-8B-Instruct", null, "Hello there", 3,
				64, false, sessionKey, 0);
	}

	/** A clock the test moves by hand. */
	private static final class ManualClock extends Clock {

		private Instant now = Instant.parse("2026-01-01T00:00:00Z");

		void advance(Duration duration) {
			now = now.plus(duration);
		}

		@Override
		public Instant instant() {
			return now;
		}

		@Override
		public long millis() {
			return now.toEpochMilli();
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			return this;
		}
	}
}
