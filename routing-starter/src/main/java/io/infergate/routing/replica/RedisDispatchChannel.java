package io.infergate.routing.replica;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.infergate.routing.redis.SharedRedisClient;

/**
 * A {@link DispatchChannel} over Redis pub/sub, on the gateway's {@link SharedRedisClient}: one connection publishes,
 * one subscribes to the channel (a subscribed connection can send nothing else).
 * <ul>
 * <li>{@link #publish} hands the message to Lettuce and returns without waiting for Redis; while disconnected it
 * throws at once (Lettuce rejects commands rather than buffering them), and at most
 * {@value SharedRedisClient#REQUEST_QUEUE_SIZE} commands wait for a slow link before publishing throws too.</li>
 * <li>When Redis cannot be reached at start, connecting is retried every {@link #CONNECT_RETRY} in the background: a
 * gateway starts and routes without its peers, and shares once Redis is up. After that Lettuce reconnects and
 * resubscribes by itself.</li>
 * <li>Redis pub/sub delivers at most once: messages published while a subscriber is disconnected are lost to it,
 * which sharing tolerates.</li>
 * </ul>
 */
public final class RedisDispatchChannel implements DispatchChannel {

	private static final Log logger = LogFactory.getLog(RedisDispatchChannel.class);

	static final Duration CONNECT_RETRY = Duration.ofSeconds(1);

	/** Long enough for a subscription over a slow link; {@link #publish} waits for nothing. */
	static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);

	private final SharedRedisClient redis;

	private final RedisURI uri;

	private final byte[] channel;

	private final List<Consumer<byte[]>> receivers = new CopyOnWriteArrayList<>();

	private volatile StatefulRedisConnection<byte[], byte[]> publisher;

	private volatile StatefulRedisPubSubConnection<byte[], byte[]> subscriber;

	private volatile boolean closed;

	private Thread connecting;

	/** A channel whose connections {@link #close} closes; {@code redis} stays open for its other users. */
	public RedisDispatchChannel(SharedRedisClient redis, String channel) {
		this.redis = redis;
		this.uri = redis.uri(COMMAND_TIMEOUT);
		this.channel = channel.getBytes(StandardCharsets.UTF_8);
	}

	/** Connects now, or keeps trying in the background when Redis cannot be reached. */
	public synchronized RedisDispatchChannel start() {
		if (!tryConnect()) {
			logger.warn("Dispatch sharing cannot reach Redis at " + redacted() + "; routing without peers and retrying"
					+ " every " + CONNECT_RETRY.toSeconds() + " s");
			connecting = new Thread(this::retry, "infergate-dispatch-sharing-connect");
			connecting.setDaemon(true);
			connecting.start();
		}
		return this;
	}

	private void retry() {
		while (!closed && !tryConnect()) {
			try {
				Thread.sleep(CONNECT_RETRY.toMillis());
			}
			catch (InterruptedException ex) {
				return;
			}
		}
		if (!closed) {
			logger.info("Dispatch sharing connected to Redis at " + redacted());
		}
	}

	private synchronized boolean tryConnect() {
		if (closed) {
			return true;
		}
		try {
			if (subscriber == null) {
				StatefulRedisPubSubConnection<byte[], byte[]> connection = redis.client().connectPubSub(ByteArrayCodec.INSTANCE,
						uri);
				connection.addListener(new RedisPubSubAdapter<>() {
					@Override
					public void message(byte[] from, byte[] message) {
						deliver(message);
					}
				});
				connection.sync().subscribe(channel);
				subscriber = connection;
			}
			if (publisher == null) {
				publisher = redis.client().connect(ByteArrayCodec.INSTANCE, uri);
			}
			return true;
		}
		catch (RuntimeException ex) {
			if (logger.isDebugEnabled()) {
				logger.debug("Cannot connect to Redis at " + redacted(), ex);
			}
			return false;
		}
	}

	private void deliver(byte[] message) {
		for (Consumer<byte[]> receiver : receivers) {
			try {
				receiver.accept(message);
			}
			catch (RuntimeException ex) {
				logger.warn("A dispatch-sharing receiver failed", ex);
			}
		}
	}

	@Override
	public void publish(byte[] message) {
		StatefulRedisConnection<byte[], byte[]> connection = publisher;
		if (connection == null) {
			throw new IllegalStateException("not connected to Redis at " + redacted());
		}
		connection.async().publish(channel, message);
	}

	@Override
	public void subscribe(Consumer<byte[]> receiver) {
		receivers.add(receiver);
	}

	/** Whether both connections are up now. */
	public boolean isConnected() {
		StatefulRedisConnection<byte[], byte[]> pub = publisher;
		StatefulRedisPubSubConnection<byte[], byte[]> sub = subscriber;
		return pub != null && sub != null && pub.isOpen() && sub.isOpen();
	}

	private String redacted() {
		return redis.address();
	}

	@Override
	public void close() {
		Thread retrying;
		synchronized (this) {
			closed = true;
			retrying = connecting;
		}
		if (retrying != null) {
			retrying.interrupt();
		}
		if (publisher != null) {
			publisher.close();
		}
		if (subscriber != null) {
			subscriber.close();
		}
	}
}
