package io.infergate.routing.pool;

import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PoolProfilesCheckTests {

	@Test
	void namesAPoolWhoseProfileIsNotDefinedWithTheDefinedOnes() {
		PoolProperties pools = new PoolProperties();
		pools.getPools().put("llama", pool("defualt"));
		pools.getPools().put("other", pool("default"));
		pools.getPools().put("unset", pool(null));

		assertThat(new PoolProfilesCheck(pools, Set.of("default", "chwbl")).problems()).containsExactly(
				"infergate.pools.llama.profile: unknown scheduling profile 'defualt'; defined profiles: chwbl, default");
	}

	private static PoolProperties.Pool pool(String profile) {
		PoolProperties.Pool pool = new PoolProperties.Pool();
		pool.setProfile(profile);
		return pool;
	}
}
