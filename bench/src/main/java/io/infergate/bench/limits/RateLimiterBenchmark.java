package io.infergate.bench.limits;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.infergate.routing.limits.LimitDecision;
import io.infergate.routing.limits.Caller;
import io.infergate.routing.limits.Limits;
import io.infergate.routing.limits.MemoryRateLimitStore;
import io.infergate.routing.limits.RateLimitPolicy;
import io.infergate.routing.limits.RateLimitStore;
import io.infergate.routing.limits.RateLimiter;
import io.infergate.routing.limits.RedisRateLimitStore;
import io.infergate.routing.limits.TokenUsage;
import io.infergate.routing.model.ConfiguredModels;
import io.infergate.routing.model.ModelCatalog;
import io.infergate.routing.model.ModelProperties;
import io.infergate.routing.model.ServedModelRoutes;
import io.infergate.routing.model.StickyBy;
import io.infergate.routing.redis.ScriptConnection;
import io.infergate.routing.redis.SharedRedisClient;
import io.infergate.routing.spend.Budget;
import io.infergate.routing.spend.BudgetListener;
import io.infergate.routing.spend.BudgetMode;
import io.infergate.routing.spend.BudgetPeriod;
import io.infergate.routing.spend.BudgetStore;
import io.infergate.routing.spend.Budgets;
import io.infergate.routing.spend.Costs;
import io.infergate.routing.spend.MemoryBudgetStore;
import io.infergate.routing.spend.Price;
import io.infergate.routing.spend.RedisBudgetStore;

/**
 * One request through the limits, as the gateway's limits step runs it: resolve the caller's buckets,
 * check and reserve every limit atomically, then settle with the real usage and release the max-parallel lease.
 * Limits are high enough that nothing is ever refused, so every operation does the whole work.
 * <ul>
 * <li>{@code store=memory}: this replica's counters;</li>
 * <li>{@code store=redis}: the Redis store with its default allowances (1% of each limit), against a
 * {@code redis-server} started on a free loopback port for the trial: far from the limits, almost every request is
 * decided from the allowances, and the occasional call to Redis (a top-up, a give-back) falls inside the
 * measurement.</li>
 * </ul>
 * <ul>
 * <li>{@code buckets=0}: nothing limited (the store is never consulted; tenant counts only);</li>
 * <li>{@code buckets=1}: the key's RPM, TPM and max-parallel;</li>
 * <li>{@code buckets=4}: key, tenant, model and key × model, each with RPM, TPM and max-parallel (12 limits).</li>
 * </ul>
 * {@code budgets=true} adds a hard month budget to each bucket's limits block (key; or key, tenant, model and key ×
 * model) that nothing reaches, and prices the model: each request then also holds the most it may cost in every
 * budget and settles at its cost, in the same store (memory, or Redis through {@code budgets.lua}, which has no
 * allowances: one call per request, with the settles of earlier requests riding along).
 * Run with {@code -t 2} to see two threads contend for the same buckets.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RateLimiterBenchmark {

	private static final Limits HIGH = new Limits(1_000_000_000_000L, 1_000_000_000_000L, 1_000_000);

	private static final Limits HIGH_WITH_BUDGET = new Limits(HIGH.rpm(), HIGH.tpm(), HIGH.maxParallel(),
			new Budget(9_000_000.0, BudgetPeriod.MONTH, BudgetMode.HARD));

	private static final Caller CALLER = new Caller("bench-key", "bench-tenant", 0, 1.0);

	private static final TokenUsage USAGE = new TokenUsage(120, 40, true);

	@Param({ "0", "1", "4" })
	public int buckets;

	@Param({ "memory", "redis" })
	public String store;

	@Param({ "false", "true" })
	public boolean budgets;

	private RateLimiter limiter;

	private Process redisServer;

	private SharedRedisClient redisClient;

	private RedisRateLimitStore redisStore;

	private ScriptConnection redisConnection;

	@Setup
	public void setUp() {
		Limits high = budgets ? HIGH_WITH_BUDGET : HIGH;
		RateLimitPolicy policy = switch (buckets) {
			case 0 -> RateLimitPolicy.unlimited();
			case 1 -> new RateLimitPolicy(Map.of("bench-key", new RateLimitPolicy.KeyLimits("bench-tenant", high, Map.of())),
					Map.of(), Map.of(), Limits.NONE);
			default -> new RateLimitPolicy(
					Map.of("bench-key", new RateLimitPolicy.KeyLimits("bench-tenant", high, Map.of("bench-model", high))),
					Map.of("bench-tenant", high), Map.of("bench-model", high), Limits.NONE);
		};
		RateLimitStore counters = store.equals("redis") ? startRedisStore()
				: new MemoryRateLimitStore(Duration.ofSeconds(1));
		BudgetStore spend = store.equals("redis")
				? new RedisBudgetStore(redisConnection, "bench:", ZoneOffset.UTC, Duration.ofMinutes(10),
						BudgetListener.NONE, Clock.systemUTC())
				: new MemoryBudgetStore(ZoneOffset.UTC, BudgetListener.NONE);
		limiter = new RateLimiter(policy, counters,
				new io.infergate.routing.limits.TenantMeters(new SimpleMeterRegistry()),
				new Budgets(spend, pricedModel(), Clock.systemUTC()));
	}

	/** {@code bench-model} at 0.15 input, 0.075 cached input, 0.6 output per million tokens. */
	private static Costs pricedModel() {
		Map<String, ModelProperties.Model> models = new LinkedHashMap<>();
		models.put("bench-model", new ModelProperties.Model("pool", null, null, null, List.of(), StickyBy.NONE,
				List.of(), List.of(), new Price(0.15, 0.075, 0.6)));
		return new Costs(new ModelCatalog(new ConfiguredModels(new ModelProperties(models), Set.of("pool")),
				ServedModelRoutes.NONE), "USD");
	}

	private RateLimitStore startRedisStore() {
		try {
			int port;
			try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
				port = free.getLocalPort();
			}
			redisServer = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
					"--save", "", "--appendonly", "no")
				.redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start();
			redisClient = new SharedRedisClient(URI.create("redis://127.0.0.1:" + port));
			redisConnection = new ScriptConnection(redisClient, Duration.ofMillis(500));
			redisStore = new RedisRateLimitStore(redisConnection, "bench:", Duration.ofMinutes(10),
					Duration.ofSeconds(1), 0.01);
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
			while (!redisStore.isConnected()) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException("redis-server on port " + port + " did not accept a connection");
				}
				Thread.sleep(50);
			}
			return redisStore;
		}
		catch (IOException ex) {
			throw new IllegalStateException("store=redis needs redis-server on the PATH (Debian package 'redis-server')",
					ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	@TearDown
	public void tearDown() {
		if (redisStore != null) {
			redisStore.close();
		}
		if (redisConnection != null) {
			redisConnection.close();
		}
		if (redisClient != null) {
			redisClient.close();
		}
		if (redisServer != null) {
			redisServer.destroy();
		}
	}

	@Benchmark
	public LimitDecision admitAndSettle() {
		CompletableFuture<LimitDecision> admitted = limiter.admit(CALLER, "bench-model", 1000, 160)
			.toCompletableFuture();
		LimitDecision decision = admitted.join();
		decision.complete(USAGE);
		return decision;
	}
}
