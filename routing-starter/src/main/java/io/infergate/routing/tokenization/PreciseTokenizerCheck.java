package io.infergate.routing.tokenization;

import java.util.ArrayList;
import java.util.List;

import io.infergate.routing.config.ConfigurationCheck;
import io.infergate.routing.pool.PoolProperties;
import io.infergate.routing.scheduling.SchedulingProfile;
import io.infergate.routing.scheduling.config.SchedulingProfiles;
import io.infergate.routing.scheduling.scorer.PrecisePrefixScorer;

/**
 * A pool scheduled by a profile with a {@code precise-prefix} scorer has a tokenizer: the scorer matches the token
 * ids the engines report, so without the model's own tokenization it would never match and would quietly route as
 * if the profile had no prefix signal.
 */
public final class PreciseTokenizerCheck implements ConfigurationCheck {

	private final PoolProperties pools;

	private final SchedulingProfiles profiles;

	public PreciseTokenizerCheck(PoolProperties pools, SchedulingProfiles profiles) {
		this.pools = pools;
		this.profiles = profiles;
	}

	@Override
	public List<String> problems() {
		List<String> problems = new ArrayList<>();
		pools.pools().forEach((name, pool) -> {
			if (pool.tokenizer() != null
					|| (pool.profile() != null && !profiles.names().contains(pool.profile()))) {
				return;
			}
			SchedulingProfile profile = profiles.resolve(pool.profile());
			boolean precise = profile.scorers()
				.stream()
				.anyMatch((weighted) -> weighted.scorer() instanceof PrecisePrefixScorer);
			if (precise) {
				problems.add("infergate.pools." + name + ".tokenizer: required by the scheduling profile '"
						+ profile.name() + "', whose precise-prefix scorer matches the token ids the engines report; "
						+ "give the model's tokenizer (tokenizer.path: a tokenizer.json or its directory), or "
						+ "tokenizer.type: simulator for simulated pods");
			}
		});
		return problems;
	}
}
