package io.infergate.gateway;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.infergate.gateway.support.RedisServer;
import io.infergate.routing.redis.SharedRedisClient;
import io.infergate.routing.replica.RedisDispatchChannel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/** The Redis pub/sub transport of dispatch sharing, against a real redis-server. */
class RedisDispatchChannelTests {

	private static final Duration PATIENCE = Duration.ofSeconds(30);

	private final RedisServer redis = RedisServer.stopped();

	private final SharedRedisClient client = new SharedRedisClient(redis.url());

	private final List<RedisDispatchChannel> channels = new CopyOnWriteArrayList<>();

	@AfterEach
	void stop() {
		channels.forEach(RedisDispatchChannel::close);
		client.close();
		redis.close();
	}

	private RedisDispatchChannel channel(List<byte[]> heard) {
		RedisDispatchChannel channel = new RedisDispatchChannel(client, "infergate:test");
		channel.subscribe(heard::add);
		channels.add(channel.start());
		return channel;
	}

	@Test
	void everySubscriberHearsEveryMessageThePublisherIncluded() {
		redis.restart();
		List<byte[]> heardByA = new CopyOnWriteArrayList<>();
		List<byte[]> heardByB = new CopyOnWriteArrayList<>();
		RedisDispatchChannel a = channel(heardByA);
		channel(heardByB);

		a.publish(new byte[] { 1, 2, 3 });

		await().atMost(PATIENCE).until(() -> heardByA.size() == 1 && heardByB.size() == 1);
		assertThat(heardByB.get(0)).containsExactly(1, 2, 3);
	}

	@Test
	void startsWithoutRedisRefusesToPublishAndConnectsOnceRedisIsUp() {
		List<byte[]> heard = new CopyOnWriteArrayList<>();
		RedisDispatchChannel channel = channel(heard);

		assertThat(channel.isConnected()).isFalse();
		assertThatIllegalStateException().isThrownBy(() -> channel.publish(new byte[] { 1 }))
			.withMessageContaining("not connected to Redis");

		redis.restart();
		await().atMost(PATIENCE).until(channel::isConnected);
		channel.publish(new byte[] { 2 });
		await().atMost(PATIENCE).until(() -> heard.size() == 1);
	}

	@Test
	void resubscribesAfterRedisRestarts() {
		redis.restart();
		List<byte[]> heard = new CopyOnWriteArrayList<>();
		RedisDispatchChannel channel = channel(heard);
		assertThat(channel.isConnected()).isTrue();

		redis.restart();

		await().atMost(PATIENCE).untilAsserted(() -> {
			try {
				channel.publish(new byte[] { 7 });
			}
			catch (RuntimeException ex) {
				// still reconnecting
			}
			assertThat(heard).isNotEmpty();
		});
	}
}
