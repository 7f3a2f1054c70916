package io.infergate.gateway.dashboard;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import io.infergate.admin.source.TenantUsageSource;
import io.infergate.routing.limits.LimitState;
import io.infergate.routing.limits.RateLimiter;

/**
 * The dashboard's tenants section: each tenant with limits, and what is used now of every limit that applies to
 * it, named {@code scope:subject limit} (for example {@code key:team-a-ci tpm}) because one tenant may have several
 * keys with limits of their own.
 */
public class TenantUsageDashboardSource implements TenantUsageSource {

	/** Longer than one dashboard tick is of no use: the next tick reads again. */
	private static final Duration READ_TIMEOUT = Duration.ofMillis(400);

	private final RateLimiter rateLimiter;

	public TenantUsageDashboardSource(RateLimiter rateLimiter) {
		this.rateLimiter = rateLimiter;
	}

	@Override
	public List<TenantUsage> tenants() {
		List<TenantUsage> tenants = new ArrayList<>();
		for (String tenant : new TreeSet<>(rateLimiter.policy().tenants())) {
			List<LimitState> states = rateLimiter.tenantLimits(tenant, READ_TIMEOUT);
			if (states.isEmpty()) {
				continue;
			}
			List<LimitUsage> limits = new ArrayList<>(states.size());
			for (LimitState state : states) {
				limits.add(new LimitUsage(state.bucket().scope().label() + ":" + state.bucket().subject() + " "
						+ state.kind().configName(), state.limit(), state.used()));
			}
			tenants.add(new TenantUsage(tenant, limits));
		}
		return tenants;
	}
}
