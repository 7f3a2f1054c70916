package io.infergate.routing.limits;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import io.infergate.routing.pool.FailureMode;
import io.infergate.routing.spend.Budget;

/**
 * Where limit counters live and the limits of callers without their own, {@code infergate.rate-limits.*}. Checked
 * at startup by {@link #problems()}, together with the keys, tenants and models, so that one failure lists every
 * problem.
 *
 * @param store Where the counters live.
 * @param redisTimeout How long one Redis call may take before it counts as a store failure.
 * @param redisKeyPrefix Prefix of every Redis key the limits use.
 * @param redisAllowance The part of each limit a replica takes from Redis at once and spends on its own requests
 * without a call (Redis grants at most half of what remains, so nothing goes beyond a limit); given back after a
 * second unused. Only limits where it comes to 2 units or more are taken this way (with 0.01, limits of 200 or more),
 * at most 64 max-parallel leases at once. 0 decides every request in Redis.
 * @param onStoreFailure What the limits do while the Redis store cannot be reached: fail-open decides with this
 * replica's memory counters, fail-close answers 503.
 * @param defaultLimits Limits of every key (and of the anonymous caller) for the fields its own limits leave out; 0 =
 * unlimited.
 * @param leaseTimeout How long a max-parallel lease in Redis lives when its request never ends it (its replica died):
 * longer than the longest request.
 * @param parallelRetryAfter The wait suggested to a request refused by a max-parallel limit: its capacity frees when
 * a request in flight ends, which nothing predicts.
 */
@ConfigurationProperties("infergate.rate-limits")
public record RateLimitProperties(@DefaultValue("memory") Store store, @DefaultValue("200ms") Duration redisTimeout,
		@DefaultValue("infergate:rl:") String redisKeyPrefix, @DefaultValue("0.01") double redisAllowance,
		@DefaultValue("fail-open") FailureMode onStoreFailure, Limits defaultLimits,
		@DefaultValue("10m") Duration leaseTimeout, @DefaultValue("1s") Duration parallelRetryAfter) {

	public RateLimitProperties {
		defaultLimits = (defaultLimits != null) ? defaultLimits : Limits.NONE;
	}

	/** These properties with other default limits. */
	public RateLimitProperties withDefaultLimits(Limits limits) {
		return new RateLimitProperties(store, redisTimeout, redisKeyPrefix, redisAllowance, onStoreFailure, limits,
				leaseTimeout, parallelRetryAfter);
	}

	public enum Store {

		/** This replica's memory: exact for one replica. */
		MEMORY,

		/** Redis ({@code infergate.redis.url}), shared by every replica. */
		REDIS
	}

	/** Every problem of these properties, each naming its property. */
	public List<String> problems() {
		List<String> problems = new ArrayList<>();
		problems.addAll(limitProblems("infergate.rate-limits.default-limits", defaultLimits));
		if (!(redisAllowance >= 0 && redisAllowance <= 0.5)) {
			problems.add("infergate.rate-limits.redis-allowance: must be between 0 (off) and 0.5, got " + redisAllowance);
		}
		positive(problems, "infergate.rate-limits.redis-timeout", redisTimeout);
		positive(problems, "infergate.rate-limits.lease-timeout", leaseTimeout);
		positive(problems, "infergate.rate-limits.parallel-retry-after", parallelRetryAfter);
		return problems;
	}

	/** The problems of one {@code {rpm, tpm, max-parallel, budget}} value at {@code path}. */
	public static List<String> limitProblems(String path, Limits limits) {
		List<String> problems = new ArrayList<>();
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
		problems.addAll(Budget.problems(path + ".budget", limits.budget()));
		return problems;
	}

	private static void positive(List<String> problems, String path, Duration duration) {
		if (duration == null || duration.isNegative() || duration.isZero()) {
			problems.add(path + ": must be a positive duration, got " + duration);
		}
	}
}
