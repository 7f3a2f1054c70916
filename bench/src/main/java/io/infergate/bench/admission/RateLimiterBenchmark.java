package io.infergate.bench.admission;

import java.time.Duration;
import java.util.Map;
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
import org.openjdk.jmh.annotations.Warmup;

import io.infergate.routing.admission.Admission;
import io.infergate.routing.admission.Caller;
import io.infergate.routing.admission.Limits;
import io.infergate.routing.admission.MemoryRateLimitStore;
import io.infergate.routing.admission.RateLimitPolicy;
import io.infergate.routing.admission.RateLimiter;
import io.infergate.routing.admission.TokenUsage;

/**
 * One request through admission by rate limits with the memory store, as the gateway's admit step runs it: resolve
 * the caller's buckets, check and reserve every limit atomically, then settle with the real usage and release the
 * max-parallel lease. Limits are high enough that nothing is ever refused, so every operation does the whole work.
 * <ul>
 * <li>{@code buckets=0}: nothing limited (the store is never consulted; tenant counts only);</li>
 * <li>{@code buckets=1}: the key's RPM, TPM and max-parallel;</li>
 * <li>{@code buckets=4}: key, tenant, model and key × model, each with RPM, TPM and max-parallel (12 limits).</li>
 * </ul>
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

	private static final Caller CALLER = new Caller("bench-key", "bench-tenant", 0, 1.0);

	private static final TokenUsage USAGE = new TokenUsage(120, 40, true);

	@Param({ "0", "1", "4" })
	public int buckets;

	private RateLimiter limiter;

	@Setup
	public void setUp() {
		RateLimitPolicy policy = switch (buckets) {
			case 0 -> RateLimitPolicy.unlimited();
			case 1 -> new RateLimitPolicy(Map.of("bench-key", new RateLimitPolicy.KeyLimits("bench-tenant", HIGH, Map.of())),
					Map.of(), Map.of(), Limits.NONE);
			default -> new RateLimitPolicy(
					Map.of("bench-key", new RateLimitPolicy.KeyLimits("bench-tenant", HIGH, Map.of("bench-model", HIGH))),
					Map.of("bench-tenant", HIGH), Map.of("bench-model", HIGH), Limits.NONE);
		};
		limiter = new RateLimiter(policy, new MemoryRateLimitStore(Duration.ofSeconds(1)),
				new io.infergate.routing.admission.TenantMeters(new SimpleMeterRegistry()));
	}

	@Benchmark
	public Admission admitAndSettle() {
		CompletableFuture<Admission> admitted = limiter.admit(CALLER, "bench-model", 1160).toCompletableFuture();
		Admission admission = admitted.join();
		admission.complete(USAGE);
		return admission;
	}
}
