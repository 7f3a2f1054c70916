package io.infergate.routing.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.resource.ClientResources;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * A connection on the {@link SharedRedisClient} for Lua scripts ({@link Script}): {@code EVALSHA}, and {@code EVAL}
 * when a restarted Redis has forgotten the script. The limits and the budgets share one. The first connection is tried again every second until it is open
 * (Redis down, or a connect slower than a second while the gateway starts); after that Lettuce reconnects it. It
 * never blocks: while Redis cannot be reached every call fails at once, and each call times out after
 * {@code timeout}.
 */
public final class ScriptConnection implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(ScriptConnection.class);

	private static final long RECONNECT_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

	private final SharedRedisClient redis;

	private final RedisURI uri;

	private volatile StatefulRedisConnection<String, String> connection;

	private volatile boolean closed;

	/** @param timeout how long one call may take before it fails */
	public ScriptConnection(SharedRedisClient redis, Duration timeout) {
		this.redis = redis;
		this.uri = redis.uri(timeout);
		connect();
	}

	/** The event loop of the connection, for the owner's timers. */
	public ClientResources resources() {
		return redis.resources();
	}

	/** Whether a connection to Redis is open now. */
	public boolean isConnected() {
		StatefulRedisConnection<String, String> current = connection;
		return current != null && current.isOpen();
	}

	/** Runs {@code script} over {@code keys} and {@code args}; its reply is a list of integers. */
	public CompletionStage<List<Long>> run(Script script, List<String> keys, List<String> args) {
		StatefulRedisConnection<String, String> current = connection;
		if (current == null) {
			return CompletableFuture.failedFuture(new RedisConnectionException("not connected to " + uri));
		}
		try {
			RedisAsyncCommands<String, String> commands = current.async();
			String[] keyArray = keys.toArray(new String[0]);
			String[] argArray = args.toArray(new String[0]);
			CompletionStage<List<Long>> result = commands.evalsha(script.sha(), ScriptOutputType.MULTI, keyArray,
					argArray);
			// a restarted Redis has forgotten its scripts: EVAL sends the script and caches it again
			return result.exceptionallyCompose((ex) -> (unwrap(ex) instanceof RedisNoScriptException)
					? commands.<List<Long>>eval(script.source(), ScriptOutputType.MULTI, keyArray, argArray)
					: CompletableFuture.failedFuture(ex));
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	private void connect() {
		if (closed) {
			return;
		}
		redis.client().connectAsync(StringCodec.UTF8, uri).whenComplete((opened, ex) -> {
			if (ex == null) {
				connection = opened;
				if (closed) {
					opened.close();
				}
			}
			else if (!closed) {
				logger.debug("Could not connect to Redis at " + uri + ", trying again in a second: " + ex.getMessage());
				try {
					redis.resources().eventExecutorGroup().schedule(this::connect, RECONNECT_INTERVAL_NANOS,
							TimeUnit.NANOSECONDS);
				}
				catch (RejectedExecutionException closing) {
					// closed meanwhile
				}
			}
		});
	}

	@Override
	public void close() {
		closed = true;
		StatefulRedisConnection<String, String> current = connection;
		if (current != null) {
			current.close();
		}
	}

	/** The cause of a failed future's exception. */
	public static Throwable unwrap(Throwable ex) {
		Throwable cause = ex;
		while ((cause instanceof CompletionException || cause instanceof ExecutionException)
				&& cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
	}

	/**
	 * A Lua script and its SHA-1.
	 *
	 * @param source the script
	 * @param sha its SHA-1, as {@code EVALSHA} names it
	 */
	public record Script(String source, String sha) {

		/** The script {@code name}, a resource next to {@code owner}. */
		public static Script load(Class<?> owner, String name) {
			String source = read(owner, name);
			return new Script(source, sha1(source));
		}
	}

	private static String read(Class<?> owner, String name) {
		try (InputStream in = owner.getResourceAsStream(name)) {
			if (in == null) {
				throw new IllegalStateException("no script " + name + " beside " + owner.getName());
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static String sha1(String script) {
		try {
			byte[] digest = java.security.MessageDigest.getInstance("SHA-1")
				.digest(script.getBytes(StandardCharsets.UTF_8));
			return java.util.HexFormat.of().formatHex(digest);
		}
		catch (java.security.NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}
}
