package io.infergate.routing.limits;

import java.time.Duration;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;

import io.infergate.routing.pool.FailureMode;

/**
 * Where limit counters live and the limits of callers without their own, {@code infergate.rate-limits.*}. Checked
 * at startup by {@link #problems()}, together with the keys, tenants and models, so that one failure lists every
 * problem.
 */
@ConfigurationProperties("infergate.rate-limits")
public class RateLimitProperties {

	public enum Store {

		/** This replica's memory: exact for one replica. */
		MEMORY,

		/** Redis ({@code infergate.redis.url}), shared by every replica. */
		REDIS
	}

	/** Where the counters live. */
	private Store store = Store.MEMORY;

	/** How long one Redis call may take before it counts as a store failure. */
	private Duration redisTimeout = Duration.ofMillis(200);

	/** Prefix of every Redis key the limits use. */
	private String redisKeyPrefix = "infergate:rl:";

	/**
	 * The part of each limit a replica takes from Redis at once and spends on its own requests without a call
	 * (Redis grants at most half of what remains, so nothing goes beyond a limit); given back after a second unused.
	 * Only limits where it comes to 2 units or more are taken this way (with 0.01, limits of 200 or more), at most 64
	 * max-parallel leases at once. 0 decides every request in Redis.
	 */
	private double redisAllowance = 0.01;

	/**
	 * What admission does while the Redis store cannot be reached: fail-open decides with this replica's memory
	 * counters, fail-close answers 503.
	 */
	private FailureMode onStoreFailure = FailureMode.FAIL_OPEN;

	/** Limits of every key (and of the anonymous caller) for the fields its own limits leave out; 0 = unlimited. */
	private Limits defaultLimits = Limits.NONE;

	/**
	 * How long a max-parallel lease in Redis lives when its request never ends it (its replica died): longer than
	 * the longest request.
	 */
	private Duration leaseTimeout = Duration.ofMinutes(10);

	/**
	 * The wait suggested to a request refused by a max-parallel limit: its capacity frees when a request in flight
	 * ends, which nothing predicts.
	 */
	private Duration parallelRetryAfter = Duration.ofSeconds(1);

	/** Every problem of these properties, each naming its property. */
	public List<String> problems() {
		List<String> problems = new java.util.ArrayList<>();
		problems.addAll(limitProblems("infergate.rate-limits.default-limits", defaultLimits));
		if (!(redisAllowance >= 0 && redisAllowance <= 0.5)) {
			problems.add("infergate.rate-limits.redis-allowance: must be between 0 (off) and 0.5, got " + redisAllowance);
		}
		positive(problems, "infergate.rate-limits.redis-timeout", redisTimeout);
		positive(problems, "infergate.rate-limits.lease-timeout", leaseTimeout);
		positive(problems, "infergate.rate-limits.parallel-retry-after", parallelRetryAfter);
		return problems;
	}

	/** The problems of one {@code {rpm, tpm, max-parallel}} value at {@code path}. */
	public static List<String> limitProblems(String path, Limits limits) {
		List<String> problems = new java.util.ArrayList<>();
		if (limits == null) {
			return problems;
		}
		if (limits.rpm() != null && limits.rpm() < 0) {
			problems.add(path + ".rpm: must be 0 (unlimited) or more, got " + limits.rpm());
		}
		if (limits.tpm() != null && limits.tpm() < 0) {
			problems.add(path + ".tpm: must be 0 (unlimited) or more, got " + limits.tpm());
		}
		if (limits.maxParallel() != null && limits.maxParallel() < 0) {
			problems.add(path + ".max-parallel: must be 0 (unlimited) or more, got " + limits.maxParallel());
		}
		return problems;
	}

	private static void positive(List<String> problems, String path, Duration duration) {
		if (duration == null || duration.isNegative() || duration.isZero()) {
			problems.add(path + ": must be a positive duration, got " + duration);
		}
	}

	public Store getStore() {
		return store;
	}

	public void setStore(Store store) {
		this.store = store;
	}

	public Duration getRedisTimeout() {
		return redisTimeout;
	}

	public void setRedisTimeout(Duration redisTimeout) {
		this.redisTimeout = redisTimeout;
	}

	public String getRedisKeyPrefix() {
		return redisKeyPrefix;
	}

	public void setRedisKeyPrefix(String redisKeyPrefix) {
		this.redisKeyPrefix = redisKeyPrefix;
	}

	public FailureMode getOnStoreFailure() {
		return onStoreFailure;
	}

	public void setOnStoreFailure(FailureMode onStoreFailure) {
		this.onStoreFailure = onStoreFailure;
	}

	public Limits getDefaultLimits() {
		return defaultLimits;
	}

	public void setDefaultLimits(Limits defaultLimits) {
		this.defaultLimits = defaultLimits;
	}

	public double getRedisAllowance() {
		return redisAllowance;
	}

	public void setRedisAllowance(double redisAllowance) {
		this.redisAllowance = redisAllowance;
	}

	public Duration getLeaseTimeout() {
		return leaseTimeout;
	}

	public void setLeaseTimeout(Duration leaseTimeout) {
		this.leaseTimeout = leaseTimeout;
	}

	public Duration getParallelRetryAfter() {
		return parallelRetryAfter;
	}

	public void setParallelRetryAfter(Duration parallelRetryAfter) {
		this.parallelRetryAfter = parallelRetryAfter;
	}
}
