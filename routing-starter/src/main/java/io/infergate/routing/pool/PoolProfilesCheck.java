package io.infergate.routing.pool;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.infergate.routing.config.ConfigurationCheck;

/**
 * Every pool's {@code profile} names a defined scheduling profile. Unchecked, a misspelt profile would start fine and
 * then fail every request of the pool.
 */
public final class PoolProfilesCheck implements ConfigurationCheck {

	private final PoolProperties pools;

	private final Set<String> profileNames;

	/** @param profileNames the defined scheduling profiles */
	public PoolProfilesCheck(PoolProperties pools, Set<String> profileNames) {
		this.pools = pools;
		this.profileNames = profileNames;
	}

	@Override
	public List<String> problems() {
		List<String> problems = new ArrayList<>();
		pools.pools().forEach((name, pool) -> {
			String profile = pool.profile();
			if (profile != null && !profileNames.contains(profile)) {
				problems.add("infergate.pools." + name + ".profile: unknown scheduling profile '" + profile
						+ "'; defined profiles: " + String.join(", ", new TreeSet<>(profileNames)));
			}
		});
		return problems;
	}
}
