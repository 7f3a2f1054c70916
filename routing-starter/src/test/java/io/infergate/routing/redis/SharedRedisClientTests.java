package io.infergate.routing.redis;

import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.infergate.routing.limits.Bucket;
import io.infergate.routing.limits.LimitScope;
import io.infergate.routing.limits.RedisRateLimitStore;
import io.infergate.routing.limits.RedisServer;
import io.infergate.routing.replica.RedisDispatchChannel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The limits store and dispatch sharing on one client against a real Redis, each with its own connections. */
class SharedRedisClientTests {

	static RedisServer redis;

	static RedisClient observer;

	static StatefulRedisConnection<String, String> connection;

	@BeforeAll
	static void startRedis() {
		redis = new RedisServer();
		observer = RedisClient.create(redis.url());
		connection = observer.connect();
	}

	@AfterAll
	static void stopRedis() {
		connection.close();
		observer.shutdown();
		redis.close();
	}

	@Test
	void theStoreAndTheChannelOpenTheirConnectionsOnOneClientAndClosingOneLeavesTheOther() {
		try (SharedRedisClient shared = new SharedRedisClient(URI.create(redis.url()))) {
			RedisRateLimitStore store = new RedisRateLimitStore(shared, Duration.ofMillis(500), "shared-client:",
					Duration.ofMinutes(10), Duration.ofSeconds(1));
			RedisDispatchChannel channel = new RedisDispatchChannel(shared, "infergate:shared-client-test");
			List<byte[]> heard = new CopyOnWriteArrayList<>();
			channel.subscribe(heard::add);
			channel.start();
			await().atMost(Duration.ofSeconds(10)).until(() -> store.isConnected() && channel.isConnected());
			// the store's commands, the channel's publications, the channel's subscription
			long connectionsWithBoth = gatewayConnections();

			store.reserve(List.of(new Bucket(LimitScope.KEY, "k", 10, 0, 0)), 1).toCompletableFuture().join();
			store.close();
			channel.publish(new byte[] { 4, 2 });

			await().atMost(Duration.ofSeconds(10)).until(() -> heard.size() == 1);
			assertThat(connectionsWithBoth).isEqualTo(3);
			await().atMost(Duration.ofSeconds(10)).until(() -> gatewayConnections() == 2);
			channel.close();
		}
	}

	/** The connections Redis lists under the gateway's client name. */
	private static long gatewayConnections() {
		return Arrays.stream(connection.sync().clientList().split("\n"))
			.filter((line) -> line.contains(" name=" + SharedRedisClient.CLIENT_NAME + " "))
			.count();
	}
}
