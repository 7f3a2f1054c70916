package io.infergate.routing.auth;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.infergate.routing.model.ModelProperties;
import io.infergate.routing.limits.RateLimitProperties;
import io.infergate.routing.config.ConfigurationCheck;
import io.infergate.routing.pool.PoolProperties;

/**
 * Checks API keys, tenants, limits and upstream credentials together at startup, so one failure lists every
 * problem with its property path. No message repeats a value that may be a secret: a key's {@code sha256} that is
 * not a hash is probably the plain secret itself.
 */
public final class LimitsConfigurationCheck implements ConfigurationCheck {

	private final AuthProperties auth;

	private final RateLimitProperties rateLimits;

	private final ModelProperties models;

	private final PoolProperties pools;

	public LimitsConfigurationCheck(AuthProperties auth, RateLimitProperties rateLimits, ModelProperties models,
			PoolProperties pools) {
		this.auth = auth;
		this.rateLimits = rateLimits;
		this.models = models;
		this.pools = pools;
	}

	@Override
	public List<String> problems() {
		return problems(auth, rateLimits, models, pools);
	}

	static List<String> problems(AuthProperties auth, RateLimitProperties rateLimits, ModelProperties models,
			PoolProperties pools) {
		List<String> problems = new ArrayList<>();
		if (auth.enabled() && auth.keys().isEmpty()) {
			problems.add("infergate.auth.enabled: true, but no key is configured under infergate.auth.keys, so "
					+ "every request would be refused");
		}
		Map<String, String> idsByHash = new HashMap<>();
		auth.keys().forEach((id, key) -> {
			String at = "infergate.auth.keys." + id;
			if (key == null) {
				problems.add(at + ": empty; a key needs at least its sha256");
				return;
			}
			String sha256 = key.sha256();
			if (sha256 == null || sha256.isBlank()) {
				problems.add(at + ".sha256: missing; configure the SHA-256 of the key's secret");
			}
			else if (!ApiKeyHash.isSha256Hex(sha256)) {
				problems.add(at + ".sha256: not a SHA-256 (64 hex digits; this value has " + sha256.length()
						+ " characters). Plain secrets are refused: configure the output of "
						+ "'java -jar gateway-app.jar hash-api-key' instead");
			}
			else {
				String previous = idsByHash.putIfAbsent(sha256.toLowerCase(java.util.Locale.ROOT), id);
				if (previous != null) {
					problems.add(at + ".sha256: the same hash as infergate.auth.keys." + previous
							+ ".sha256; each key needs its own secret");
				}
			}
			if (key.models() == null || key.models().isEmpty()) {
				problems.add(at + ".models: empty, so the key could call no model; [\"*\"] allows every model");
			}
			else {
				for (int i = 0; i < key.models().size(); i++) {
					String glob = key.models().get(i);
					if (glob == null || glob.isBlank()) {
						problems.add(at + ".models[" + i + "]: empty glob");
					}
				}
			}
			problems.addAll(RateLimitProperties.limitProblems(at + ".limits", key.limits()));
			key.modelLimits()
				.forEach((model, limits) -> problems
					.addAll(RateLimitProperties.limitProblems(at + ".model-limits." + model, limits)));
		});
		java.util.Set<String> knownTenants = new java.util.TreeSet<>();
		auth.keys().forEach((id, key) -> knownTenants
			.add((key != null && key.tenant() != null && !key.tenant().isBlank()) ? key.tenant() : id));
		if (!auth.enabled()) {
			knownTenants.add(io.infergate.routing.limits.Caller.ANONYMOUS);
		}
		auth.tenants().forEach((name, tenant) -> {
			String at = "infergate.auth.tenants." + name;
			if (tenant == null) {
				return;
			}
			if (tenant.limits() != null && tenant.limits().budget() != null && !knownTenants.contains(name)) {
				problems.add(at + ".limits.budget: no key belongs to tenant '" + name + "', so the budget would never "
						+ "count anything; tenants of the keys: " + (knownTenants.isEmpty() ? "none" : knownTenants));
			}
			if (!(tenant.weight() > 0) || Double.isInfinite(tenant.weight())) {
				problems.add(at + ".weight: must be a finite number above 0, got " + tenant.weight());
			}
			problems.addAll(RateLimitProperties.limitProblems(at + ".limits", tenant.limits()));
		});
		problems.addAll(rateLimits.problems());
		models.models()
			.forEach((name, model) -> problems
				.addAll(RateLimitProperties.limitProblems("infergate.models." + name + ".limits", model.limits())));
		pools.pools().forEach((name, pool) -> {
			String credential = pool.upstreamApiKey();
			if (credential != null && !isHeaderToken(credential)) {
				problems.add("infergate.pools." + name + ".upstream-api-key: must be a non-empty token without "
						+ "spaces or control characters (this value has " + credential.length() + " characters)");
			}
		});
		return problems;
	}

	private static boolean isHeaderToken(String value) {
		if (value.isEmpty()) {
			return false;
		}
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c <= ' ' || c >= 0x7f) {
				return false;
			}
		}
		return true;
	}
}
