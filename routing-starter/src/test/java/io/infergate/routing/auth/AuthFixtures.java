package io.infergate.routing.auth;

import java.util.List;

import io.infergate.routing.limits.Limits;

/** API key configurations for tests. */
public final class AuthFixtures {

	public static final String TEAM_A_SECRET = "sk-team-a-0123456789";

	public static final String TEAM_B_SECRET = "sk-team-b-9876543210";

	private AuthFixtures() {
	}

	/** Keys {@code team-a} (tenant {@code a}, priority 2, models {@code gpt-*}) and {@code team-b}, enabled. */
	public static AuthProperties twoKeys() {
		AuthProperties auth = new AuthProperties();
		auth.setEnabled(true);
		auth.getKeys().put("team-a", key(TEAM_A_SECRET, "a", 2, List.of("gpt-*", "support-bot")));
		auth.getKeys().put("team-b", key(TEAM_B_SECRET, null, 0, List.of("*")));
		AuthProperties.Tenant tenant = new AuthProperties.Tenant();
		tenant.setWeight(3);
		tenant.setLimits(new Limits(100L, null, null));
		auth.getTenants().put("a", tenant);
		return auth;
	}

	public static AuthProperties.Key key(String secret, String tenant, int priority, List<String> models) {
		AuthProperties.Key key = new AuthProperties.Key();
		key.setSha256(ApiKeyHash.sha256Hex(secret));
		key.setTenant(tenant);
		key.setPriority(priority);
		key.setModels(models);
		return key;
	}
}
