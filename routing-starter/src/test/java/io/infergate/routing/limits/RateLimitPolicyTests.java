package io.infergate.routing.limits;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RateLimitPolicyTests {

	private final RateLimitPolicy policy = new RateLimitPolicy(
			Map.of("team-a", new RateLimitPolicy.KeyLimits("a", new Limits(600L, null, null),
					Map.of("gpt-4o-mini", new Limits(100L, 50_000L, null)))),
			Map.of("a", new Limits(1200L, 400_000L, null)), Map.of("gpt-4o-mini", new Limits(null, null, 8)),
			new Limits(60L, 10_000L, 0));

	private final Caller teamA = new Caller("team-a", "a", 0, 1);

	@Test
	void appliesKeyTenantModelAndKeyTimesModelLimitsTakingUnsetKeyFieldsFromTheDefaults() {
		List<Bucket> buckets = policy.buckets(teamA, "gpt-4o-mini");

		assertThat(buckets).containsExactly(new Bucket(LimitScope.KEY, "team-a", 600, 10_000, 0),
				new Bucket(LimitScope.TENANT, "a", 1200, 400_000, 0), new Bucket(LimitScope.MODEL, "gpt-4o-mini", 0, 0, 8),
				new Bucket(LimitScope.KEY_MODEL, "team-a/gpt-4o-mini", 100, 50_000, 0));
	}

	@Test
	void aCallerWithoutAConfiguredKeyHasTheDefaultLimits() {
		assertThat(policy.buckets(Caller.anonymous(), "other"))
			.containsExactly(new Bucket(LimitScope.KEY, "anonymous", 60, 10_000, 0));
	}

	@Test
	void limitsNothingWhenNothingIsConfigured() {
		RateLimitPolicy none = RateLimitPolicy.unlimited();

		assertThat(none.limitsAnything()).isFalse();
		assertThat(none.buckets(Caller.anonymous(), "m")).isEmpty();
	}
}
