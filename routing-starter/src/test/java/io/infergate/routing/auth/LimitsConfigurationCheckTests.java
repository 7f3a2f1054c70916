package io.infergate.routing.auth;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import io.infergate.routing.model.ModelProperties;
import io.infergate.routing.limits.RateLimitProperties;
import io.infergate.routing.pool.PoolProperties;

import static org.assertj.core.api.Assertions.assertThat;

class LimitsConfigurationCheckTests {

	@Test
	void listsEveryProblemWithItsPropertyAndNeverThePlainSecret() {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("infergate.auth.enabled", "true");
		properties.put("infergate.auth.keys.team-a.sha256", "sk-live-plain-secret");
		properties.put("infergate.auth.keys.team-a.tenant", "a");
		properties.put("infergate.auth.keys.team-b.sha256", ApiKeyHash.sha256Hex(AuthFixtures.TEAM_B_SECRET));
		properties.put("infergate.auth.keys.team-b.limits.rpm", "-1");
		properties.put("infergate.auth.keys.copy.sha256", ApiKeyHash.sha256Hex(AuthFixtures.TEAM_B_SECRET));
		properties.put("infergate.auth.keys.copy.models", "");
		properties.put("infergate.auth.tenants.a.weight", "0");
		properties.put("infergate.rate-limits.default-limits.tpm", "-5");
		properties.put("infergate.models.m.pool", "p");
		properties.put("infergate.models.m.limits.max-parallel", "-2");
		properties.put("infergate.pools.p.upstream-api-key", "has space");

		List<String> problems = problems(properties);

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
	void aBudgetNeedsAFiniteAmountOfZeroOrMoreAndATenantSomeKeyBelongsTo() {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("infergate.auth.enabled", "true");
		properties.put("infergate.auth.keys.team-a.sha256", ApiKeyHash.sha256Hex(AuthFixtures.TEAM_B_SECRET));
		properties.put("infergate.auth.keys.team-a.tenant", "a");
		properties.put("infergate.auth.keys.team-a.limits.budget.amount", "-0.01");
		properties.put("infergate.auth.keys.team-a.model-limits.m.budget.period", "day");
		properties.put("infergate.auth.tenants.a.limits.budget.amount", "100");
		properties.put("infergate.auth.tenants.ghost.limits.budget.amount", "100");
		properties.put("infergate.rate-limits.default-limits.budget.amount", "Infinity");
		properties.put("infergate.models.m.limits.budget.amount", "20000000");

		List<String> problems = problems(properties);

		assertThat(problems).containsExactlyInAnyOrder(
				"infergate.auth.keys.team-a.limits.budget.amount: must be a finite number, 0 or more, got -0.01",
				"infergate.auth.keys.team-a.model-limits.m.budget.amount: missing; a budget needs an amount in the usage currency",
				"infergate.auth.tenants.ghost.limits.budget: no key belongs to tenant 'ghost', so the budget would never count anything; tenants of the keys: [a]",
				"infergate.rate-limits.default-limits.budget.amount: must be a finite number, 0 or more, got Infinity",
				"infergate.models.m.limits.budget.amount: at most 9,000,000 currency units, got 2.0E7");
	}

	@Test
	void withoutAuthenticationOnlyTheAnonymousTenantHasCallers() {
		assertThat(problems(Map.of("infergate.auth.tenants.anonymous.limits.budget.amount", "5"))).isEmpty();
		assertThat(problems(Map.of("infergate.auth.tenants.team-a.limits.budget.amount", "5"))).singleElement()
			.asString()
			.startsWith("infergate.auth.tenants.team-a.limits.budget: no key belongs to tenant 'team-a'");
	}

	@Test
	void authenticationWithoutKeysIsAProblemAndNoConfigurationIsNone() {
		assertThat(problems(Map.of("infergate.auth.enabled", "true"))).singleElement()
			.asString()
			.startsWith("infergate.auth.enabled:");
		assertThat(problems(Map.of())).isEmpty();
	}

	@Test
	void theBoundPropertiesNeverShowAKeyOrACredential() {
		Binder binder = new Binder(new MapConfigurationPropertySource(Map.of("infergate.auth.keys.team-a.sha256",
				"sk-live-plain-secret", "infergate.pools.p.upstream-api-key", "upstream-secret")));

		assertThat(binder.bindOrCreate("infergate.auth", AuthProperties.class).toString())
			.contains("team-a")
			.doesNotContain("sk-live-plain-secret");
		assertThat(binder.bindOrCreate("infergate", PoolProperties.class).toString()).contains("upstreamApiKey=******")
			.doesNotContain("upstream-secret");
	}

	/** The problems of the auth, rate-limit, model and pool properties bound from {@code properties}. */
	private static List<String> problems(Map<String, String> properties) {
		Binder binder = new Binder(new MapConfigurationPropertySource(properties));
		return LimitsConfigurationCheck.problems(binder.bindOrCreate("infergate.auth", AuthProperties.class),
				binder.bindOrCreate("infergate.rate-limits", RateLimitProperties.class),
				binder.bindOrCreate("infergate", ModelProperties.class),
				binder.bindOrCreate("infergate", PoolProperties.class));
	}
}
