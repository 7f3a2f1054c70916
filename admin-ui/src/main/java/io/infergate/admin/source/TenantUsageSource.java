package io.infergate.admin.source;

import java.util.List;

/**
 * Each tenant's usage against its limits, for the dashboard's tenants section. Rate limiting provides it as a
 * bean; without one the section is left out.
 */
@FunctionalInterface
public interface TenantUsageSource {

	/** Every tenant with at least one limit, in the order the dashboard should list them. */
	List<TenantUsage> tenants();

	/**
	 * One tenant.
	 *
	 * @param tenant the tenant's name
	 * @param limits its limits and what is used of each now
	 */
	record TenantUsage(String tenant, List<LimitUsage> limits) {

		public TenantUsage {
			limits = List.copyOf(limits);
		}
	}

	/**
	 * One limit.
	 *
	 * @param name the limit as configured, e.g. {@code rpm}, {@code tpm} or {@code max-parallel}
	 * @param limit the configured limit
	 * @param used what the tenant uses of it now, in the same unit
	 */
	record LimitUsage(String name, long limit, long used) {
	}
}
