package io.infergate.routing.pool;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

class PoolProfilesCheckTests {

	@Test
	void namesAPoolWhoseProfileIsNotDefinedWithTheDefinedOnes() {
		PoolProperties pools = new Binder(new MapConfigurationPropertySource(Map.of(
				"infergate.pools.llama.profile", "defualt",
				"infergate.pools.other.profile", "default",
				"infergate.pools.unset.engine", "vllm")))
			.bindOrCreate("infergate", PoolProperties.class);

		assertThat(new PoolProfilesCheck(pools, Set.of("default", "chwbl")).problems()).containsExactly(
				"infergate.pools.llama.profile: unknown scheduling profile 'defualt'; defined profiles: chwbl, default");
	}
}
