package io.infergate.routing.redis;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;

/**
 * The one Lettuce client of a gateway ({@code infergate.redis.url}): one event loop and one reconnect policy for
 * every user of Redis. Each user opens its own connections on it, because they cannot share one: a connection that
 * subscribes to a pub/sub channel accepts no other command (no {@code EVALSHA}, no {@code PUBLISH}).
 * <ul>
 * <li>Every connection reconnects by itself (every 50 ms at first, at most every second), and while it is
 * disconnected its commands fail at once instead of waiting in a buffer.</li>
 * <li>A command times out after the timeout of the {@link #uri(Duration) URI} its connection was opened with.</li>
 * <li>Connections are named {@value #CLIENT_NAME} in Redis {@code CLIENT LIST}.</li>
 * </ul>
 * Users close their connections and never this client; its owner closes it after them (in a Spring context,
 * beans that depend on it are destroyed first).
 */
public final class SharedRedisClient implements AutoCloseable {

	public static final String CLIENT_NAME = "infergate";

	/** Commands a connection lets wait for a slow link before it refuses more. */
	public static final int REQUEST_QUEUE_SIZE = 10_000;

	static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);

	private final ClientResources resources;

	private final RedisClient client;

	private final RedisURI uri;

	public SharedRedisClient(URI url) {
		this.uri = RedisURI.create(url);
		this.uri.setClientName(CLIENT_NAME);
		this.resources = ClientResources.builder()
			.ioThreadPoolSize(2)
			.computationThreadPoolSize(2)
			.reconnectDelay(Delay.exponential(Duration.ofMillis(50), Duration.ofSeconds(1), 2, TimeUnit.MILLISECONDS))
			.build();
		this.client = RedisClient.create(resources);
		this.client.setOptions(ClientOptions.builder()
			.autoReconnect(true)
			.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
			.requestQueueSize(REQUEST_QUEUE_SIZE)
			.socketOptions(SocketOptions.builder().connectTimeout(CONNECT_TIMEOUT).build())
			.timeoutOptions(TimeoutOptions.enabled())
			.build());
	}

	public RedisClient client() {
		return client;
	}

	/** The event loop of every connection, for timers that belong with them. */
	public ClientResources resources() {
		return resources;
	}

	/** The Redis URL with {@code commandTimeout}, for a connection of one user. */
	public RedisURI uri(Duration commandTimeout) {
		RedisURI copy = RedisURI.builder(uri).build();
		copy.setTimeout(commandTimeout);
		return copy;
	}

	/** {@code host:port}, without credentials, for logs. */
	public String address() {
		return uri.getHost() + ":" + uri.getPort();
	}

	@Override
	public void close() {
		client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		resources.shutdown(0, 2, TimeUnit.SECONDS);
	}
}
