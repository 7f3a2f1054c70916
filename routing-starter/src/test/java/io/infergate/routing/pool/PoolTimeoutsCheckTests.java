package io.infergate.routing.pool;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;


import static org.assertj.core.api.Assertions.assertThat;

class PoolTimeoutsCheckTests {

	@Test
	void namesEveryTimeoutThatIsNotPositiveAndAcceptsUnsetOnes() {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("infergate.pools.fine.timeouts.first-byte", "30s");
		properties.put("infergate.pools.unset.engine", "vllm");
		properties.put("infergate.pools.bad.timeouts.first-byte", "0");
		properties.put("infergate.pools.bad.timeouts.stream-idle", "-5ms");
		PoolProperties pools = new Binder(new MapConfigurationPropertySource(properties))
			.bindOrCreate("infergate", PoolProperties.class);

		assertThat(new PoolTimeoutsCheck(pools).problems()).containsExactly(
				"infergate.pools.bad.timeouts.first-byte: must be positive (or unset for no limit), was 0ms",
				"infergate.pools.bad.timeouts.stream-idle: must be positive (or unset for no limit), was -5ms");
	}
}
