package io.infergate.gateway.auth;

import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

import io.infergate.routing.admission.Caller;

/**
 * The configured API keys, looked up by the secret a client presents.
 * <p>
 * The presented secret is hashed with SHA-256, the hash looks up the key, and the found key's hash is compared
 * with {@link MessageDigest#isEqual}, which takes the same time whatever bytes differ. Hashing takes time that
 * depends only on the secret's length, and the lookup's timing depends on the hash of what the client sent, not
 * on any configured secret: learning how a guess's hash compares with a stored hash tells nothing about a secret
 * that hashes to it, so no timing reveals a secret byte by byte. Only hashes are held in memory.
 */
public final class ApiKeys {

	private final boolean enabled;

	private final Map<String, ApiKey> byHash = new HashMap<>();

	private final Map<String, ApiKey> byId = new HashMap<>();

	/** Keys of properties that passed {@link AdmissionConfigurationCheck}. */
	public ApiKeys(AuthProperties properties) {
		this.enabled = properties.isEnabled();
		properties.getKeys().forEach((id, key) -> {
			String tenant = (key.getTenant() != null && !key.getTenant().isBlank()) ? key.getTenant() : id;
			AuthProperties.Tenant tenantProperties = properties.getTenants().get(tenant);
			double weight = (tenantProperties != null) ? tenantProperties.getWeight() : 1.0;
			byte[] hash = HexFormat.of().parseHex(key.getSha256().toLowerCase(java.util.Locale.ROOT));
			ApiKey apiKey = new ApiKey(id, hash, new Caller(id, tenant, key.getPriority(), weight),
					new ModelGlobs(key.getModels()));
			byHash.put(HexFormat.of().formatHex(hash), apiKey);
			byId.put(id, apiKey);
		});
	}

	/** Whether requests need a key. */
	public boolean enabled() {
		return enabled;
	}

	/** The key whose secret is {@code secret}, or {@code null}. */
	public ApiKey authenticate(String secret) {
		byte[] presented = ApiKeyHash.sha256(secret);
		ApiKey candidate = byHash.get(HexFormat.of().formatHex(presented));
		return (candidate != null && MessageDigest.isEqual(candidate.sha256(), presented)) ? candidate : null;
	}

	/** The key with id {@code id}, or {@code null} (as for the anonymous caller). */
	public ApiKey byId(String id) {
		return byId.get(id);
	}
}
