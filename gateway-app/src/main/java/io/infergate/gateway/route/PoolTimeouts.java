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
		pools.getPools().forEach((name, pool) -> {
			PoolProperties.Timeouts timeouts = pool.getTimeouts();
			if (timeouts.getFirstByte() != null) {
				firstByte.put(name, timeouts.getFirstByte());
			}
			if (timeouts.getStreamIdle() != null) {
				streamIdle.put(name, timeouts.getStreamIdle());
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
