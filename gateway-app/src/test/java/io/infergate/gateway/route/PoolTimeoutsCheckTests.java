package io.infergate.gateway.route;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.infergate.routing.pool.PoolProperties;

import static org.assertj.core.api.Assertions.assertThat;

class PoolTimeoutsCheckTests {

	@Test
	void namesEveryTimeoutThatIsNotPositiveAndAcceptsUnsetOnes() {
		PoolProperties pools = new PoolProperties();
		PoolProperties.Pool fine = new PoolProperties.Pool();
		fine.getTimeouts().setFirstByte(Duration.ofSeconds(30));
		PoolProperties.Pool bad = new PoolProperties.Pool();
		bad.getTimeouts().setFirstByte(Duration.ZERO);
		bad.getTimeouts().setStreamIdle(Duration.ofMillis(-5));
		pools.getPools().put("fine", fine);
		pools.getPools().put("unset", new PoolProperties.Pool());
		pools.getPools().put("bad", bad);

		assertThat(new PoolTimeoutsCheck(pools).problems()).containsExactly(
				"infergate.pools.bad.timeouts.first-byte: must be positive (or unset for no limit), was 0ms",
				"infergate.pools.bad.timeouts.stream-idle: must be positive (or unset for no limit), was -5ms");
	}
}
