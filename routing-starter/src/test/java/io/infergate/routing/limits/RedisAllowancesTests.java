package io.infergate.routing.limits;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.infergate.routing.redis.SharedRedisClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The Redis store with allowances, against a real Redis: most requests are decided without a call, and replicas
 * sharing a limit still admit exactly the limit between them.
 */
class RedisAllowancesTests {

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

	private static RedisRateLimitStore store(String prefix, double share) {
		RedisRateLimitStore store = new RedisRateLimitStore(shared, Duration.ofMillis(500), prefix,
				Duration.ofMinutes(10), Duration.ofSeconds(1), share);
		await().atMost(Duration.ofSeconds(10)).until(store::isConnected);
		return store;
	}

	private static Reservation reserve(RateLimitStore store, List<Bucket> buckets, long tokens) {
		return store.reserve(buckets, tokens).toCompletableFuture().join();
	}

	@Test
	void twoReplicasTakingAllowancesAdmitExactlyTheLimitBetweenThem() {
		try (RedisRateLimitStore one = store("exact:", 0.01); RedisRateLimitStore two = store("exact:", 0.01)) {
			// 1,200 per minute (20 a second refill): each replica asks for 12 at a time
			List<Bucket> buckets = List.of(new Bucket(LimitScope.KEY, "k", 1_200, 0, 0));
			long callsBefore = scriptCalls();
			long start = System.nanoTime();
			int admitted = 0;
			for (int i = 0; i < 2_000; i++) {
				if (reserve((i % 2 == 0) ? one : two, buckets, 1).admitted()) {
					admitted++;
				}
			}
			double seconds = (System.nanoTime() - start) / 1e9;
			long calls = scriptCalls() - callsBefore;

			// never beyond the limit and what refilled meanwhile, and nothing left stranded in an allowance
			assertThat(admitted).isBetween(1_200, 1_200 + (int) Math.ceil(seconds * 20) + 1);
			// far from the limit, a call covers about 12 requests; near it, every request is decided in Redis
			assertThat(calls).isLessThan(2_000);
		}
	}

	@Test
	void requestsFarFromTheirLimitsAreDecidedHereWithoutACall() {
		try (RedisRateLimitStore store = store("local:", 0.01)) {
			// 12,000 per minute and 100 million tokens on the key, 1,000 in parallel; 100,000 a minute on the model
			List<Bucket> buckets = List.of(new Bucket(LimitScope.KEY, "k", 12_000, 100_000_000, 1_000),
					new Bucket(LimitScope.MODEL, "m", 100_000, 0, 0));
			long callsBefore = scriptCalls();
			List<Reservation> reservations = new ArrayList<>();
			for (int i = 0; i < 1_000; i++) {
				Reservation reservation = reserve(store, buckets, 100);
				reservations.add(reservation);
				reservation.release(40);
			}
			long calls = scriptCalls() - callsBefore;

			assertThat(reservations).allMatch(Reservation::admitted);
			// the first request asks for 120 requests, 1 million tokens and 10 leases; each finished request gives its
			// lease back to this replica's pool and its 60 unused tokens back to its allowance
			assertThat(calls).isLessThan(30);
			// the headers still count down: the key's 12,000 is the tightest request limit
			Reservation last = reservations.get(999);
			assertThat(last.requests().limit()).isEqualTo(12_000);
			assertThat(last.requests().remaining()).isBetween(11_000L, 11_500L);
			assertThat(reservations.get(500).requests().remaining())
				.isGreaterThan(last.requests().remaining());
			assertThat(last.tokenLimit().remaining()).isLessThan(100_000_000L);
		}
	}

	@Test
	void replicasLendingLeasesFromTheirPoolsHoldExactlyTheMaxParallelBetweenThem() {
		try (RedisRateLimitStore one = store("pooled:", 0.1); RedisRateLimitStore two = store("pooled:", 0.1)) {
			// 40 in parallel: each replica asks for 4 leases at a time
			List<Bucket> buckets = List.of(new Bucket(LimitScope.KEY, "k", 0, 0, 40));
			List<Reservation> held = new ArrayList<>();
			for (int i = 0; i < 100; i++) {
				Reservation reservation = reserve((i % 2 == 0) ? one : two, buckets, 1);
				if (reservation.admitted()) {
					held.add(reservation);
				}
			}

			assertThat(held).hasSize(40);
			assertThat(connection.sync().zcard("pooled:max-parallel:key:k")).isEqualTo(40);

			held.forEach((reservation) -> reservation.release(1));
			// leases back in the pools are ended in Redis once unused for a second
			await().atMost(Duration.ofSeconds(5)).until(() -> connection.sync().zcard("pooled:max-parallel:key:k") == 0);
		}
	}

	@Test
	void anAllowanceLeftUnusedIsGivenBackToRedis() {
		try (RedisRateLimitStore store = store("giveback:", 0.01)) {
			// 100,000 tokens a minute: the replica asks for 1,000 at a time; 50,000 keep the counter busy for 30 s
			List<Bucket> buckets = List.of(new Bucket(LimitScope.TENANT, "t", 0, 100_000, 0));
			reserve(store, buckets, 50_000).release(50_000);
			double tatWithAllowance = Double.parseDouble(connection.sync().get("giveback:tpm:tenant:t"));

			await().atMost(Duration.ofSeconds(5))
				.until(() -> Double.parseDouble(connection.sync().get("giveback:tpm:tenant:t")) < tatWithAllowance);
			// 1,000 tokens of 100,000 a minute are 600 ms of the counter, given back
			double tat = Double.parseDouble(connection.sync().get("giveback:tpm:tenant:t"));
			assertThat(tatWithAllowance - tat).isBetween(599_000d, 601_000d);
		}
	}

	@Test
	void nearItsLimitACounterIsDecidedInRedisForEveryRequestAndRefusalsAreExact() {
		try (RedisRateLimitStore store = store("near:", 0.01)) {
			// 300 per minute: 3 at a time while far from the limit, fewer as it fills, none at the end
			List<Bucket> buckets = List.of(new Bucket(LimitScope.KEY, "k", 300, 0, 0));
			long start = System.nanoTime();
			int admitted = 0;
			for (int i = 0; i < 310; i++) {
				if (reserve(store, buckets, 1).admitted()) {
					admitted++;
				}
			}
			double seconds = (System.nanoTime() - start) / 1e9;
			Reservation refused = reserve(store, buckets, 1);

			assertThat(admitted).isBetween(300, 300 + (int) Math.ceil(seconds * 5) + 1);
			assertThat(refused.admitted()).isFalse();
			assertThat(refused.denied().kind()).isEqualTo(LimitKind.RPM);
			// one request of 300 a minute frees every 200 ms
			assertThat(refused.denied().retryAfterMicros()).isBetween(1L, 200_000L);
			assertThat(refused.requests().remaining()).isZero();
		}
	}

	@Test
	void whenRedisIsLostTheAllowancesAreForgottenAndRequestsGoToRedisAgain() {
		try (RedisRateLimitStore store = store("lost:", 0.01)) {
			List<Bucket> buckets = List.of(new Bucket(LimitScope.KEY, "k", 100_000, 0, 0));
			assertThat(reserve(store, buckets, 1).admitted()).isTrue();
			// an allowance of 1,000 is held: this one is decided here
			long callsBefore = scriptCalls();
			assertThat(reserve(store, buckets, 1).admitted()).isTrue();
			assertThat(scriptCalls()).isEqualTo(callsBefore + 0);

			redis.stop();
			try {
				await().atMost(Duration.ofSeconds(5)).until(() -> !store.isConnected());
				// not admitted from the allowance: the store fails, so the caller falls back as on-store-failure says
				assertThatThrownBy(() -> reserve(store, buckets, 1)).isInstanceOf(CompletionException.class);
			}
			finally {
				redis.restart();
			}
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

	/** How many times Redis has run a script, from its own command counts. */
	private static long scriptCalls() {
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
}
