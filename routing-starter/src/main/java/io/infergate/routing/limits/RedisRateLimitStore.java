package io.infergate.routing.limits;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.lettuce.core.resource.ClientResources;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.infergate.routing.redis.ScriptConnection;
import io.infergate.routing.redis.SharedRedisClient;

/**
 * Limit counters in Redis, shared by every gateway replica. One {@code EVALSHA} of {@code limits.lua} is the whole
 * check-and-reserve of a request over all its limits (one round trip, atomic because Redis runs a script alone).
 * Requests that arrive while a call is on its way go together in the next one, which Redis answers as if they had
 * come one by one; the releases of finished requests ride along in the next call, or go on their own after a
 * millisecond when no request comes ({@link LimitsCall}). Times come from the Redis server's
 * clock ({@code TIME}), so replicas whose clocks differ still agree. Every key expires once its counter would be
 * back to full (per-minute limits) or its last lease ends (max-parallel), so idle keys and tenants cost nothing.
 * <p>
 * Max-parallel counts are sorted sets of leases that expire after {@code lease-timeout}, so a replica that dies
 * with requests in flight cannot hold capacity forever.
 * <p>
 * It never blocks, and a request waits at most for the one call on its way: while Redis cannot be reached, every
 * call fails at once (the connection
 * rejects commands while it reconnects, and commands time out after {@code timeout}), and the caller falls back
 * as {@code on-store-failure} says. The connection comes back by itself, without waiting for a request: Lettuce
 * reconnects a lost connection, and a first connection that failed (Redis down, or a connect slower than a second
 * while the gateway starts) is tried again every second until it is open. The connection is the store's own, on the
 * gateway's {@link SharedRedisClient}: dispatch sharing subscribes on that client too, and a subscribed connection
 * cannot run {@code EVALSHA}. All keys share one
 * script call, so a Redis Cluster is not supported; use a standalone Redis or a primary with replicas.
 */
public final class RedisRateLimitStore implements RateLimitStore, AutoCloseable {

	private static final Log logger = LogFactory.getLog(RedisRateLimitStore.class);

	private static final long RELEASE_LINGER_MICROS = 1000;

	private static final int MAX_RELEASES_PER_CALL = 128;

	private static final int MAX_CALLS_IN_FLIGHT = 1;

	private static final int MAX_REQUESTS_PER_CALL = 128;

	private static final long ALLOWANCE_IDLE_NANOS = TimeUnit.SECONDS.toNanos(1);

	private static final long ALLOWANCE_SWEEP_MILLIS = 250;

	private static final ScriptConnection.Script SCRIPT = ScriptConnection.Script.load(RedisRateLimitStore.class,
			"limits.lua");

	private final ScriptConnection redis;

	private final boolean ownsConnection;

	private final ClientResources resources;

	private final String keyPrefix;

	private final long leaseMicros;

	private final long parallelRetryMicros;

	private final String leasePrefix = UUID.randomUUID().toString().substring(0, 8) + ":";

	private final AtomicLong leases = new AtomicLong();

	private final Object lock = new Object();

	private LimitsCall waiting = new LimitsCall();

	private final Allowances allowances;

	private int callsInFlight;

	private boolean releaseScheduled;

	private ScheduledFuture<?> allowanceSweep;


	/** A store that decides every request in Redis (no {@link Allowances}). */
	public RedisRateLimitStore(SharedRedisClient redis, Duration timeout, String keyPrefix, Duration leaseTimeout,
			Duration parallelRetry) {
		this(redis, timeout, keyPrefix, leaseTimeout, parallelRetry, 0);
	}

	/**
	 * @param redis the client to open the store's connection on; {@link #close} leaves it open
	 * @param timeout how long one command may take before it counts as a failure
	 * @param keyPrefix prefix of every key
	 * @param leaseTimeout how long a max-parallel lease lives when nothing ends it
	 * @param parallelRetry the wait suggested to a request refused by a max-parallel limit
	 * @param allowanceShare the part of each limit this replica takes at once to decide requests without a call
	 * ({@link Allowances}); 0 decides every request in Redis
	 */
	public RedisRateLimitStore(SharedRedisClient redis, Duration timeout, String keyPrefix, Duration leaseTimeout,
			Duration parallelRetry, double allowanceShare) {
		this(new ScriptConnection(redis, timeout), true, keyPrefix, leaseTimeout, parallelRetry, allowanceShare);
	}

	/**
	 * A store on a connection shared with others (the budgets'), which {@link #close} leaves open.
	 *
	 * @param redis the connection
	 * @param keyPrefix prefix of every key
	 * @param leaseTimeout how long a max-parallel lease lives when nothing ends it
	 * @param parallelRetry the wait suggested to a request refused by a max-parallel limit
	 * @param allowanceShare the part of each limit this replica takes at once to decide requests without a call
	 */
	public RedisRateLimitStore(ScriptConnection redis, String keyPrefix, Duration leaseTimeout,
			Duration parallelRetry, double allowanceShare) {
		this(redis, false, keyPrefix, leaseTimeout, parallelRetry, allowanceShare);
	}

	private RedisRateLimitStore(ScriptConnection redis, boolean ownsConnection, String keyPrefix,
			Duration leaseTimeout, Duration parallelRetry, double allowanceShare) {
		this.redis = redis;
		this.ownsConnection = ownsConnection;
		this.resources = redis.resources();
		this.keyPrefix = keyPrefix;
		this.leaseMicros = leaseTimeout.toNanos() / 1000;
		this.parallelRetryMicros = Math.max(1, parallelRetry.toNanos() / 1000);
		this.allowances = new Allowances(allowanceShare, ALLOWANCE_IDLE_NANOS, leaseTimeout.toNanos());
		if (allowanceShare > 0) {
			allowanceSweep = resources.eventExecutorGroup().scheduleAtFixedRate(this::giveBackIdleAllowances, ALLOWANCE_SWEEP_MILLIS,
					ALLOWANCE_SWEEP_MILLIS, TimeUnit.MILLISECONDS);
		}
	}

	@Override
	public String name() {
		return "redis";
	}

	/**
	 * Admits the request from this replica's allowances when they cover it; else decides it in Redis, asking for
	 * more allowance where it runs low.
	 */
	@Override
	public CompletionStage<Reservation> reserve(List<Bucket> buckets, long tokens) {
		long[] wants;
		synchronized (lock) {
			if (!allowances.isEmpty()) {
				if (isConnected()) {
					Reservation local = allowances.take(this, buckets, tokens, System.nanoTime());
					if (local != null) {
						return CompletableFuture.completedFuture(local);
					}
				}
				else {
					allowances.forget();
				}
			}
			wants = allowances.wants(buckets, System.nanoTime());
		}
		String leaseId = leasePrefix + Long.toString(leases.incrementAndGet(), 36);
		return reserveOrRead(buckets, tokens, leaseId, true, wants).whenComplete((values, ex) -> {
			synchronized (lock) {
				if (ex != null) {
					allowances.notGranted(buckets, wants);
				}
				else if (wants != null || !allowances.isEmpty()) {
					allowances.granted(waiting, keyPrefix, buckets, wants, values, leaseId, System.nanoTime());
					if (!waiting.isEmpty()) {
						lingerOnce();
					}
				}
			}
		}).thenApply((states) -> {
			Evaluation evaluation = evaluation(buckets, tokens, states);
			return evaluation.finish(this, leaseId);
		});
	}

	@Override
	public CompletionStage<List<LimitState>> read(List<Bucket> buckets) {
		return reserveOrRead(buckets, 0, "-", false, null).thenApply((values) -> {
			List<LimitState> states = new ArrayList<>();
			int at = 1;
			for (Bucket bucket : buckets) {
				for (LimitKind kind : LimitKind.values()) {
					if (bucket.limit(kind) > 0) {
						states.add(new LimitState(bucket, kind, bucket.limit(kind), values.get(at),
								values.get(at + 2), 0, 0));
						at += LimitsCall.VALUES_PER_COUNTER;
					}
				}
			}
			return states;
		});
	}

	/**
	 * Joins the request to the next call of {@code limits.lua}. While {@value #MAX_CALLS_IN_FLIGHT} call is on its
	 * way, what arrives meanwhile waits and then goes together, up to {@value #MAX_REQUESTS_PER_CALL} requests per
	 * call: an idle gateway sends each request at once, and a busy one makes Redis read and write each shared counter
	 * once for many requests.
	 */
	private CompletionStage<List<Long>> reserveOrRead(List<Bucket> buckets, long tokens, String leaseId,
			boolean commit, long[] wants) {
		CompletableFuture<List<Long>> answer = new CompletableFuture<>();
		LimitsCall ready = null;
		synchronized (lock) {
			waiting.addRequest(keyPrefix, buckets, tokens, leaseId, commit, wants, answer);
			if (callsInFlight < MAX_CALLS_IN_FLIGHT || waiting.requests() >= MAX_REQUESTS_PER_CALL) {
				ready = takeWaiting();
			}
		}
		if (ready != null) {
			send(ready);
		}
		return answer;
	}

	private static Evaluation evaluation(List<Bucket> buckets, long tokens, List<Long> values) {
		Evaluation evaluation = new Evaluation(buckets, tokens);
		int at = 1;
		for (Bucket bucket : buckets) {
			for (LimitKind kind : LimitKind.values()) {
				if (bucket.limit(kind) > 0) {
					evaluation.add(bucket, kind, values.get(at + 5), values.get(at), values.get(at + 1),
							values.get(at + 2), values.get(at + 3), values.get(at + 4));
					at += LimitsCall.VALUES_PER_COUNTER;
				}
			}
		}
		return evaluation;
	}

	/**
	 * Settles what the allowances can (tokens back into them, leases back into their pools) and queues the rest for
	 * the next call: with the next request's check-and-reserve when one goes within {@value #RELEASE_LINGER_MICROS}
	 * µs, else on its own then; {@value #MAX_RELEASES_PER_CALL} releases go at once. Under load the releases thus
	 * ride along with the reservations; an idle gateway settles each within that linger.
	 */
	@Override
	public void release(Reservation reservation, long actualTokens) {
		LimitsCall ready = null;
		synchronized (lock) {
			int before = waiting.releases();
			allowances.release(waiting, keyPrefix, reservation, actualTokens, System.nanoTime());
			if (waiting.releases() == before) {
				return;
			}
			if (waiting.releases() >= MAX_RELEASES_PER_CALL) {
				ready = takeWaiting();
			}
			else {
				lingerOnce();
			}
		}
		if (ready != null) {
			send(ready);
		}
	}

	/**
	 * Schedules the send of what waits {@value #RELEASE_LINGER_MICROS} µs from now, unless one is scheduled; to be
	 * called holding {@link #lock}.
	 */
	private void lingerOnce() {
		if (releaseScheduled) {
			return;
		}
		releaseScheduled = true;
		try {
			resources.eventExecutorGroup().schedule(this::sendLingeringReleases, RELEASE_LINGER_MICROS,
					TimeUnit.MICROSECONDS);
		}
		catch (RejectedExecutionException closing) {
			// closed meanwhile: close() sends what waits
		}
	}

	/** Gives back the allowances left unused, or forgets them all when Redis is lost; runs every few hundred ms. */
	private void giveBackIdleAllowances() {
		LimitsCall ready = null;
		synchronized (lock) {
			if (allowances.isEmpty()) {
				return;
			}
			if (!isConnected()) {
				allowances.forget();
				return;
			}
			if (allowances.giveBack(waiting, keyPrefix, System.nanoTime(), false) && callsInFlight < MAX_CALLS_IN_FLIGHT) {
				ready = takeWaiting();
			}
		}
		if (ready != null) {
			send(ready);
		}
	}

	/** Sends what waits unless a call is on its way, whose end sends it. */
	private void sendLingeringReleases() {
		LimitsCall ready = null;
		synchronized (lock) {
			releaseScheduled = false;
			if (!waiting.isEmpty() && callsInFlight < MAX_CALLS_IN_FLIGHT) {
				ready = takeWaiting();
			}
		}
		if (ready != null) {
			send(ready);
		}
	}

	/** Takes what waits out as a call now in flight; to be called holding {@link #lock}. */
	private LimitsCall takeWaiting() {
		LimitsCall call = waiting;
		waiting = new LimitsCall();
		callsInFlight++;
		return call;
	}

	/**
	 * Sends {@code call}. When it ends, what waits goes next: at once if it holds requests, else (releases only)
	 * after the linger.
	 */
	private CompletionStage<List<Long>> send(LimitsCall call) {
		CompletionStage<List<Long>> sent;
		try {
			sent = redis.run(SCRIPT, call.keys(), call.args(leaseMicros, parallelRetryMicros));
		}
		catch (RuntimeException ex) {
			sent = CompletableFuture.failedFuture(ex);
		}
		return sent.whenComplete((reply, ex) -> {
			LimitsCall next = null;
			synchronized (lock) {
				callsInFlight--;
				if (waiting.requests() > 0 && callsInFlight < MAX_CALLS_IN_FLIGHT) {
					next = takeWaiting();
				}
				else if (!waiting.isEmpty()) {
					lingerOnce();
				}
				if (ex != null) {
					// what Redis granted may be gone with it: decide in Redis (or as on-store-failure says) until back
					allowances.forget();
				}
			}
			if (next != null) {
				send(next);
			}
			if (ex != null) {
				if (call.releases() > 0) {
					logger.debug("Could not release " + call.releases()
							+ " reservations in Redis (their counters expire by themselves): " + ex);
				}
				call.fail(unwrap(ex));
			}
			else {
				call.complete(reply);
			}
		});
	}

	/** Whether a connection to Redis is open now. */
	public boolean isConnected() {
		return redis.isConnected();
	}

	@Override
	public void close() {
		if (allowanceSweep != null) {
			allowanceSweep.cancel(false);
		}
		LimitsCall last;
		synchronized (lock) {
			allowances.giveBack(waiting, keyPrefix, System.nanoTime(), true);
			last = takeWaiting();
		}
		try {
			if (!last.isEmpty()) {
				send(last).toCompletableFuture().get(1, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException ex) {
			logger.debug("The last releases did not reach Redis before closing: " + ex);
		}
		if (ownsConnection) {
			redis.close();
		}
	}

	private static Throwable unwrap(Throwable ex) {
		return ScriptConnection.unwrap(ex);
	}
}
