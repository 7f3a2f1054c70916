package io.infergate.gateway.dashboard;

import java.time.Duration;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.infergate.admin.source.TenantUsageSource.LimitUsage;
import io.infergate.admin.source.TenantUsageSource.TenantUsage;
import io.infergate.routing.limits.Caller;
import io.infergate.routing.limits.Limits;
import io.infergate.routing.limits.MemoryRateLimitStore;
import io.infergate.routing.limits.RateLimitPolicy;
import io.infergate.routing.limits.RateLimiter;
import io.infergate.routing.limits.TenantMeters;

import static org.assertj.core.api.Assertions.assertThat;

class TenantUsageDashboardSourceTests {

	// the store's clock stands still, so nothing refills between the request and the reading
	private final RateLimiter limiter = new RateLimiter(
			new RateLimitPolicy(
					Map.of("team-a-ci", new RateLimitPolicy.KeyLimits("team-a", new Limits(600L, null, null), Map.of())),
					Map.of("team-a", new Limits(null, 10_000L, null)), Map.of(), new Limits(null, null, null)),
			new MemoryRateLimitStore(() -> 5_000_000L, Duration.ofSeconds(1)), new TenantMeters(new SimpleMeterRegistry()));

	private final TenantUsageDashboardSource source = new TenantUsageDashboardSource(limiter);

	@Test
	void showsWhatAnAdmittedRequestUsesOfEachLimitOfItsTenantAndKey() {
		limiter.admit(new Caller("team-a-ci", "team-a", 0, 1), "m", 1_200).toCompletableFuture().join();

		assertThat(source.tenants()).singleElement().satisfies((TenantUsage tenant) -> {
			assertThat(tenant.tenant()).isEqualTo("team-a");
			assertThat(tenant.limits()).contains(new LimitUsage("tenant:team-a tpm", 10_000, 1_200),
					new LimitUsage("key:team-a-ci rpm", 600, 1));
		});
	}
}
