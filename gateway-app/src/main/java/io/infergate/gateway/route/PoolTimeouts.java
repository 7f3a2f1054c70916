package io.infergate.gateway.route;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import io.infergate.routing.pool.PoolProperties;

/** Each pool's limits on a slow model server ({@code infergate.pools.<name>.timeouts}), by pool name. */
public final class PoolTimeouts {

	private final Map<String, Duration> firstByte = new HashMap<>();

	private final Map<String, Duration> streamIdle = new HashMap<>();

	public PoolTimeouts(PoolProperties pools) {
		pools.pools().forEach((name, pool) -> {
			PoolProperties.Timeouts timeouts = pool.timeouts();
			if (timeouts.firstByte() != null) {
				firstByte.put(name, timeouts.firstByte());
			}
			if (timeouts.streamIdle() != null) {
				streamIdle.put(name, timeouts.streamIdle());
			}
		});
	}

	/** The longest wait for an attempt's response headers, or {@code null} for the HTTP client's own limit. */
	Duration firstByte(String pool) {
		return firstByte.get(pool);
	}

	/** The longest silence between stream events, or {@code null} for none. */
	Duration streamIdle(String pool) {
		return streamIdle.get(pool);
	}
}
