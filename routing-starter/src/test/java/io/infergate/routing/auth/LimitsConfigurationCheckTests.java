package io.infergate.routing.auth;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.infergate.routing.model.ModelProperties;
import io.infergate.routing.limits.Limits;
import io.infergate.routing.limits.RateLimitProperties;
import io.infergate.routing.pool.PoolProperties;

import static org.assertj.core.api.Assertions.assertThat;

class LimitsConfigurationCheckTests {

	@Test
	void listsEveryProblemWithItsPropertyAndNeverThePlainSecret() {
		AuthProperties auth = AuthFixtures.twoKeys();
		auth.getKeys().get("team-a").setSha256("sk-live-plain-secret");
		auth.getKeys().put("copy", AuthFixtures.key(AuthFixtures.TEAM_B_SECRET, null, 0, List.of()));
		auth.getKeys().get("team-b").setLimits(new Limits(-1L, null, null));
		auth.getTenants().get("a").setWeight(0);
		RateLimitProperties rateLimits = new RateLimitProperties();
		rateLimits.setDefaultLimits(new Limits(null, -5L, null));
		ModelProperties models = new ModelProperties();
		ModelProperties.Model model = new ModelProperties.Model();
		model.setPool("p");
		model.setLimits(new Limits(null, null, -2));
		models.getModels().put("m", model);
		PoolProperties pools = new PoolProperties();
		PoolProperties.Pool pool = new PoolProperties.Pool();
		pool.setUpstreamApiKey("has space");
		pools.getPools().put("p", pool);

		List<String> problems = LimitsConfigurationCheck.problems(auth, rateLimits, models, pools);

		assertThat(problems).hasSize(8);
		assertThat(problems).anySatisfy((p) -> assertThat(p).startsWith("infergate.auth.keys.team-a.sha256: not a SHA-256")
			.contains("hash-api-key"));
		assertThat(problems).anySatisfy((p) -> assertThat(p).startsWith("infergate.auth.keys.copy.sha256: the same hash as infergate.auth.keys.team-b"));
		assertThat(problems).anySatisfy((p) -> assertThat(p).startsWith("infergate.auth.keys.copy.models: empty"));
		assertThat(problems).anySatisfy((p) -> assertThat(p).startsWith("infergate.auth.keys.team-b.limits.rpm:"));
		assertThat(problems).anySatisfy((p) -> assertThat(p).startsWith("infergate.auth.tenants.a.weight:"));
		assertThat(problems).anySatisfy((p) -> assertThat(p).startsWith("infergate.rate-limits.default-limits.tpm:"));
		assertThat(problems).anySatisfy((p) -> assertThat(p).startsWith("infergate.models.m.limits.max-parallel:"));
		assertThat(problems).anySatisfy((p) -> assertThat(p).startsWith("infergate.pools.p.upstream-api-key:"));
		assertThat(String.join("\n", problems)).doesNotContain("sk-live-plain-secret").doesNotContain("has space");
	}

	@Test
	void authenticationWithoutKeysIsAProblemAndNoConfigurationIsNone() {
		AuthProperties enabled = new AuthProperties();
		enabled.setEnabled(true);

		assertThat(LimitsConfigurationCheck.problems(enabled, new RateLimitProperties(), new ModelProperties(),
				new PoolProperties())).singleElement().asString().startsWith("infergate.auth.enabled:");
		assertThat(LimitsConfigurationCheck.problems(new AuthProperties(), new RateLimitProperties(),
				new ModelProperties(), new PoolProperties())).isEmpty();
	}
}
