package io.infergate.routing.pool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.infergate.routing.config.ConfigurationCheck;

/** Every pool timeout that is set is positive: zero or less would fail each request at once. */
public final class PoolTimeoutsCheck implements ConfigurationCheck {

	private final PoolProperties pools;

	public PoolTimeoutsCheck(PoolProperties pools) {
		this.pools = pools;
	}

	@Override
	public List<String> problems() {
		List<String> problems = new ArrayList<>();
		pools.pools().forEach((name, pool) -> problems.addAll(problems(name, pool)));
		return problems;
	}

	/** The problems of one pool's timeouts. */
	public static List<String> problems(String name, PoolProperties.Pool pool) {
		List<String> problems = new ArrayList<>();
		check(problems, "infergate.pools." + name + ".timeouts.first-byte", pool.timeouts().firstByte());
		check(problems, "infergate.pools." + name + ".timeouts.stream-idle", pool.timeouts().streamIdle());
		return problems;
	}

	private static void check(List<String> problems, String property, Duration value) {
		if (value != null && (value.isZero() || value.isNegative())) {
			problems.add(property + ": must be positive (or unset for no limit), was " + value.toMillis() + "ms");
		}
	}
}
