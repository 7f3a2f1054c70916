package io.infergate.routing.spend;

import java.net.URI;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.infergate.routing.limits.RedisServer;
import io.infergate.routing.redis.ScriptConnection;
import io.infergate.routing.redis.SharedRedisClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link BudgetStoreContract} against a real Redis, each replica a store on its own connection; and what only a
 * shared store must do: let go of the holds of a replica that died.
 */
class RedisBudgetStoreTests extends BudgetStoreContract {

	static RedisServer redis;

	static SharedRedisClient shared;

	private final List<ScriptConnection> connections = new ArrayList<>();

	private final List<RedisBudgetStore> stores = new ArrayList<>();

	private final String run = UUID.randomUUID().toString().substring(0, 8) + ":";

	@BeforeAll
	static void startRedis() {
		redis = new RedisServer();
		shared = new SharedRedisClient(URI.create(redis.url()));
	}

	@AfterAll
	static void stopRedis() {
		shared.close();
		redis.close();
	}

	@AfterEach
	void close() {
		stores.forEach(RedisBudgetStore::close);
		connections.forEach(ScriptConnection::close);
	}

	@Override
	BudgetStore store(String prefix) {
		return newStore(prefix, Duration.ofMinutes(10));
	}

	@Override
	List<BudgetStore> replicas(String prefix) {
		return List.of(store(prefix), store(prefix));
	}

	private RedisBudgetStore newStore(String prefix, Duration holdTimeout) {
		ScriptConnection connection = new ScriptConnection(shared, Duration.ofSeconds(2));
		connections.add(connection);
		await().atMost(Duration.ofSeconds(10)).until(connection::isConnected);
		RedisBudgetStore store = new RedisBudgetStore(connection, run + prefix, ZoneOffset.UTC, holdTimeout,
				listener, clock);
		stores.add(store);
		return store;
	}

	@Test
	void theHoldsOfAReplicaThatNeverSettlesThemExpireAfterTheHoldTimeout() {
		RedisBudgetStore dies = newStore("dies:", Duration.ofMinutes(1));
		clock.advanceMillis(10_000);
		RedisBudgetStore lives = newStore("dies:", Duration.ofMinutes(1));
		List<BudgetLine> lines = List.of(line("dies", 0.02, BudgetPeriod.DAY, BudgetMode.HARD));
		assertThat(reserve(dies, lines, 2 * CENT).admitted()).isTrue();
		assertThat(reserve(lives, lines, CENT).admitted()).isFalse();

		clock.advanceMillis(Duration.ofMinutes(1).toMillis() + 1);

		assertThat(reserve(lives, lines, CENT).admitted()).isTrue();
		assertThat(read(lives, lines.get(0)).heldNanos()).isEqualTo(CENT);
	}

	@Test
	void aSettleAfterItsHoldExpiredCountsTheCostOnceAndGivesNothingBackTwice() {
		RedisBudgetStore store = newStore("late:", Duration.ofMinutes(1));
		clock.advanceMillis(10_000);
		BudgetLine line = line("late", 0.05, BudgetPeriod.DAY, BudgetMode.HARD);
		BudgetHold slow = reserve(store, List.of(line), 2 * CENT);
		clock.advanceMillis(Duration.ofMinutes(1).toMillis() + 1);
		reserve(store, List.of(line), CENT);

		slow.settle(2 * CENT);

		awaitSpent(store, line, 2 * CENT);
		assertThat(read(store, line).heldNanos()).isEqualTo(CENT);
	}
}
