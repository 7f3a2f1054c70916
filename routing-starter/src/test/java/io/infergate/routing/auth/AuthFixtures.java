package io.infergate.routing.auth;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.infergate.routing.limits.Limits;

/** API key configurations for tests. */
public final class AuthFixtures {

	public static final String TEAM_A_SECRET = "sk-team-a-0123456789";

	public static final String TEAM_B_SECRET = "sk-team-b-9876543210";

	private AuthFixtures() {
	}

	/** Keys {@code team-a} (tenant {@code a}, priority 2, models {@code gpt-*}) and {@code team-b}, enabled. */
	public static AuthProperties twoKeys() {
		Map<String, AuthProperties.Key> keys = new LinkedHashMap<>();
		keys.put("team-a", key(TEAM_A_SECRET, "a", 2, List.of("gpt-*", "support-bot")));
		keys.put("team-b", key(TEAM_B_SECRET, null, 0, List.of("*")));
		return new AuthProperties(true, keys, Map.of("a", new AuthProperties.Tenant(3, new Limits(100L, null, null))));
	}

	public static AuthProperties.Key key(String secret, String tenant, int priority, List<String> models) {
		return new AuthProperties.Key(ApiKeyHash.sha256Hex(secret), tenant, priority, models, null, Map.of());
	}
}
