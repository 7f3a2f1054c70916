package io.infergate.routing.limits;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.infergate.routing.pool.FailureMode;
import io.infergate.routing.redis.SharedRedisClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The Redis store against a real Redis: the same limits as in memory, shared by every store that uses it. */
class RedisRateLimitStoreTests {

	static RedisServer redis;

	static RedisClient client;

	static StatefulRedisConnection<String, String> connection;

	/** One client for every store, as in a gateway; each store opens its own connection on it. */
	static SharedRedisClient shared;

	@BeforeAll
	static void startRedis() {
		redis = new RedisServer();
		client = RedisClient.create(redis.url());
		connection = client.connect();
		shared = new SharedRedisClient(URI.create(redis.url()));
	}

	@AfterAll
	static void stopRedis() {
		connection.close();
		client.shutdown();
		shared.close();
		redis.close();
	}

	private static RedisRateLimitStore store(String prefix) {
		RedisRateLimitStore store = new RedisRateLimitStore(shared, Duration.ofMillis(500), prefix,
				Duration.ofMinutes(10), Duration.ofSeconds(1));
		await().atMost(Duration.ofSeconds(10)).until(store::isConnected);
		return store;
	}

	private static Reservation reserve(RateLimitStore store, List<Bucket> buckets, long tokens) {
		return store.reserve(buckets, tokens).toCompletableFuture().join();
	}

	@Test
	void twoReplicasShareOneBurstOfN() {
		try (RedisRateLimitStore one = store("shared:"); RedisRateLimitStore two = store("shared:")) {
			// 3 per minute: nothing refills during the test
			List<Bucket> buckets = List.of(new Bucket(LimitScope.KEY, "k", 3, 0, 0));
			int admitted = 0;
			for (int i = 0; i < 6; i++) {
				if (reserve((i % 2 == 0) ? one : two, buckets, 1).admitted()) {
					admitted++;
				}
			}
			Reservation refused = reserve(one, buckets, 1);

			assertThat(admitted).isEqualTo(3);
			assertThat(refused.denied().retryAfterMicros()).isBetween(18_000_000L, 20_000_000L);
			assertThat(refused.requests().remaining()).isZero();
		}
	}

	@Test
	void releasingWithTheRealUsageRefundsTheTokensReservedButNotUsed() {
		try (RedisRateLimitStore store = store("tokens:")) {
			List<Bucket> buckets = List.of(new Bucket(LimitScope.TENANT, "t", 0, 6000, 0));
			Reservation first = reserve(store, buckets, 5000);
			assertThat(reserve(store, buckets, 5000).admitted()).isFalse();

			first.release(300);

			await().atMost(Duration.ofSeconds(5)).until(() -> reserve(store, buckets, 5000).admitted());
		}
	}

	@Test
	void maxParallelLeasesEndWithTheirRequests() {
		try (RedisRateLimitStore store = store("parallel:")) {
			List<Bucket> buckets = List.of(new Bucket(LimitScope.MODEL, "m", 0, 0, 1));
			Reservation first = reserve(store, buckets, 1);
			Reservation second = reserve(store, buckets, 1);

			first.release(1);

			assertThat(first.admitted()).isTrue();
			assertThat(second.admitted()).isFalse();
			assertThat(second.denied().kind()).isEqualTo(LimitKind.MAX_PARALLEL);
			await().atMost(Duration.ofSeconds(5)).until(() -> reserve(store, buckets, 1).admitted());
		}
	}

	@Test
	void manyReleasesSentTogetherEndEveryLeaseAndRefundEveryRequestsUnusedTokens() {
		try (RedisRateLimitStore store = store("batch:")) {
			// 200 requests: more than one batch; each reserves 50 tokens and uses 10
			List<Bucket> buckets = List.of(new Bucket(LimitScope.KEY, "k", 0, 10_000, 200));
			List<Reservation> held = new java.util.ArrayList<>();
			for (int i = 0; i < 200; i++) {
				held.add(reserve(store, buckets, 50));
			}
			assertThat(held).allMatch(Reservation::admitted);
			assertThat(reserve(store, buckets, 500).admitted()).isFalse();

			held.forEach((reservation) -> reservation.release(10));

			await().atMost(Duration.ofSeconds(5)).until(() -> connection.sync().zcard("batch:max-parallel:key:k") == 0);
			// 200 × 10 tokens used of 10,000 per minute: 8,000 left, plus what refilled meanwhile (167 a second)
			List<LimitState> states = store.read(buckets).toCompletableFuture().join();
			assertThat(states).filteredOn((state) -> state.kind() == LimitKind.TPM)
				.singleElement()
				.satisfies((state) -> assertThat(state.remaining()).isBetween(7_990L, 9_000L));
		}
	}

	@Test
	void reservationsMadeTogetherGoInFewerCallsAndAreDecidedAsOneByOne() {
		try (RedisRateLimitStore store = store("together:")) {
			// 300 requests at once from one replica, on a key of 100 per minute and 20 in parallel, and 60 of them
			// also on a model of 10 per minute: the counters must end as 300 calls in a row would leave them
			List<Bucket> keyOnly = List.of(new Bucket(LimitScope.KEY, "k", 100, 0, 20));
			List<Bucket> keyAndModel = List.of(new Bucket(LimitScope.KEY, "k", 100, 0, 20),
					new Bucket(LimitScope.MODEL, "m", 10, 0, 0));
			long callsBefore = reserveCalls();
			List<java.util.concurrent.CompletableFuture<Reservation>> answers = new java.util.ArrayList<>();
			for (int i = 0; i < 300; i++) {
				answers.add(store.reserve((i % 5 == 0) ? keyAndModel : keyOnly, 1).toCompletableFuture());
			}
			List<Reservation> reservations = answers.stream().map(java.util.concurrent.CompletableFuture::join).toList();
			long calls = reserveCalls() - callsBefore;

			List<Reservation> admitted = reservations.stream().filter(Reservation::admitted).toList();
			assertThat(admitted).hasSize(20);
			assertThat(reservations.subList(0, 20)).allMatch(Reservation::admitted);
			assertThat(reservations.subList(20, 300)).noneMatch(Reservation::admitted)
				.allMatch((refused) -> refused.denied().kind() == LimitKind.MAX_PARALLEL);
			// the 4 admitted of the model's requests (0, 5, 10, 15) took 4 of its 10
			assertThat(connection.sync().zcard("together:max-parallel:key:k")).isEqualTo(20);
			assertThat(store.read(List.of(new Bucket(LimitScope.MODEL, "m", 10, 0, 0))).toCompletableFuture().join())
				.singleElement()
				.satisfies((state) -> assertThat(state.remaining()).isEqualTo(6));
			// each admitted request saw one less left on the key than the one before it (1 and 19 are on the key alone)
			assertThat(admitted.get(1).requests().remaining()).isEqualTo(98);
			assertThat(admitted.get(19).requests().remaining()).isEqualTo(80);
			assertThat(calls).isBetween(2L, 299L);

			admitted.forEach((reservation) -> reservation.release(1));
			await().atMost(Duration.ofSeconds(5)).until(() -> connection.sync().zcard("together:max-parallel:key:k") == 0);
		}
	}

	@Test
	void aReleaseGoingWithTheNextReservationFreesItsPlaceBeforeThatReservationIsDecided() {
		try (RedisRateLimitStore store = store("along:")) {
			List<Bucket> buckets = List.of(new Bucket(LimitScope.KEY, "k", 0, 1_000, 1));
			Reservation first = reserve(store, buckets, 100);

			first.release(40);
			Reservation second = reserve(store, buckets, 100);

			assertThat(second.admitted()).isTrue();
			assertThat(connection.sync().zrange("along:max-parallel:key:k", 0, -1)).containsExactly(second.leaseId());
			// 40 used and 100 reserved of 1,000: the 100 reserved first and not used were given back first
			assertThat(second.tokenLimit().remaining()).isBetween(860L, 870L);
		}
	}

	/** Whether every reservation is decided within the bound, however it was decided. */
	private static boolean decidedWithin(Duration bound, CompletableFuture<?>... reservations) {
		try {
			CompletableFuture.allOf(reservations)
				.handle((ignored, ex) -> null)
				.get(bound.toMillis(), TimeUnit.MILLISECONDS);
			return true;
		}
		catch (TimeoutException ex) {
			return false;
		}
		catch (InterruptedException | ExecutionException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** How many times Redis has run the reserve script (by its SHA) or any script, from its own command counts. */
	private static long reserveCalls() {
		String stats = connection.sync().info("commandstats");
		long calls = 0;
		for (String line : stats.split("\r?\n")) {
			if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
				String count = line.substring(line.indexOf("calls=") + 6);
				calls += Long.parseLong(count.substring(0, count.indexOf(',')));
			}
		}
		return calls;
	}

	@Test
	void everyKeyExpiresOnceItsCounterIsFullAgain() {
		try (RedisRateLimitStore store = store("expiry:")) {
			reserve(store, List.of(new Bucket(LimitScope.KEY, "k", 60, 0, 0)), 1);

			long ttlMillis = connection.sync().pttl("expiry:rpm:key:k");

			// one request of 60 per minute: full again after 1 s, plus a second of margin
			assertThat(ttlMillis).isBetween(1000L, 2000L);
		}
	}

	@Test
	void aRedisThatForgotTheScriptsIsSentThemAgain() {
		try (RedisRateLimitStore store = store("noscript:")) {
			List<Bucket> buckets = List.of(new Bucket(LimitScope.KEY, "k", 10, 0, 0));
			reserve(store, buckets, 1);
			connection.sync().scriptFlush();

			assertThat(reserve(store, buckets, 1).requests().remaining()).isEqualTo(8);
		}
	}

	@Test
	void aStoreStartedWhileRedisIsDownFailsAtOnceAndConnectsOnceRedisIsUp() {
		redis.stop();
		try (RedisRateLimitStore store = new RedisRateLimitStore(shared, Duration.ofMillis(200), "late:",
				Duration.ofMinutes(10), Duration.ofSeconds(1))) {
			List<Bucket> buckets = List.of(new Bucket(LimitScope.KEY, "k", 10, 0, 0));
			CompletableFuture<Reservation> reservation = store.reserve(buckets, 1).toCompletableFuture();
			// failed when reserve returns, for want of a connection: no command was sent to wait for an answer
			boolean failed = reservation.isCompletedExceptionally();
			redis.restart();

			assertThat(failed).isTrue();
			assertThat(reservation).failsWithin(Duration.ZERO)
				.withThrowableThat()
				.withStackTraceContaining("not connected to ");
			await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200)).until(() -> {
				try {
					return reserve(store, buckets, 1).admitted();
				}
				catch (RuntimeException stillDown) {
					return false;
				}
			});
		}
	}

	@Test
	void aStoreWhoseFirstConnectionFailedConnectsByItselfBeforeAnyRequestNeedsIt() {
		redis.stop();
		try (RedisRateLimitStore store = new RedisRateLimitStore(shared, Duration.ofMillis(200), "unasked:",
				Duration.ofMinutes(10), Duration.ofSeconds(1))) {
			await().pollDelay(Duration.ofMillis(500)).until(() -> true);
			boolean connectedWhileDown = store.isConnected();
			redis.restart();

			assertThat(connectedWhileDown).isFalse();
			await().atMost(Duration.ofSeconds(10)).until(store::isConnected);
		}
	}

	@Test
	void whenRedisStopsFailOpenDecidesLocallyFailCloseRefusesAndBothShareAgainOnceItIsBack() {
		try (RedisRateLimitStore one = store("failover:"); RedisRateLimitStore two = store("failover:")) {
			SimpleMeterRegistry registry = new SimpleMeterRegistry();
			FailoverRateLimitStore open = new FailoverRateLimitStore(one,
					new MemoryRateLimitStore(Duration.ofSeconds(1)), FailureMode.FAIL_OPEN, registry);
			FailoverRateLimitStore close = new FailoverRateLimitStore(two,
					new MemoryRateLimitStore(Duration.ofSeconds(1)), FailureMode.FAIL_CLOSE, registry);
			List<Bucket> buckets = List.of(new Bucket(LimitScope.KEY, "k", 2, 0, 0));

			redis.stop();
			CompletableFuture<Reservation> local = open.reserve(buckets, 1).toCompletableFuture();
			CompletableFuture<Reservation> refused = close.reserve(buckets, 1).toCompletableFuture();
			// Redis stays down until both are decided (or long past any command timeout): neither waits for it
			boolean decidedWhileDown = decidedWithin(Duration.ofSeconds(30), local, refused);
			redis.restart();

			assertThat(decidedWhileDown).as("decided while Redis was down").isTrue();
			assertThat(local.join().admitted()).isTrue();
			assertThat(open.isAvailable()).isFalse();
			assertThat(refused.join().status()).isEqualTo(Reservation.Status.STORE_UNAVAILABLE);
			assertThat(registry.get("infergate.rate.limit.store.failures").counters()).hasSize(2);
			await().atMost(Duration.ofSeconds(15)).until(() -> reserve(open, buckets, 1).admitted() && open.isAvailable());
			// shared again: one more across both replicas fills the fresh Redis's limit of two
			assertThat(reserve(close, buckets, 1).admitted()).isTrue();
			assertThat(reserve(open, buckets, 1).admitted()).isFalse();
			assertThat(reserve(close, buckets, 1).admitted()).isFalse();
		}
	}
}
