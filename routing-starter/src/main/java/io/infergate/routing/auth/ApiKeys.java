package io.infergate.routing.auth;

import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;


import io.infergate.routing.limits.Caller;

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

	/** The header a client may send its secret in instead of {@code Authorization: Bearer}. */
	public static final String API_KEY_HEADER = "api-key";

	private static final String BEARER = "Bearer ";

	/** Replaced whole by a configuration reload. */
	private volatile Keys keys;

	/** Keys of properties that passed {@link LimitsConfigurationCheck}. */
	public ApiKeys(AuthProperties properties) {
		this.keys = Keys.of(properties);
	}

	/** After a configuration reload, with properties that passed {@link LimitsConfigurationCheck}. */
	public void reconfigure(AuthProperties properties) {
		this.keys = Keys.of(properties);
	}

	/** Whether requests need a key, and the keys by hash and by id. */
	private record Keys(boolean enabled, Map<String, ApiKey> byHash, Map<String, ApiKey> byId) {

		static Keys of(AuthProperties properties) {
			Map<String, ApiKey> byHash = new HashMap<>();
			Map<String, ApiKey> byId = new HashMap<>();
			properties.keys().forEach((id, key) -> {
				String tenant = (key.tenant() != null && !key.tenant().isBlank()) ? key.tenant() : id;
				AuthProperties.Tenant tenantProperties = properties.tenants().get(tenant);
				double weight = (tenantProperties != null) ? tenantProperties.weight() : 1.0;
				byte[] hash = HexFormat.of().parseHex(key.sha256().toLowerCase(java.util.Locale.ROOT));
				ApiKey apiKey = new ApiKey(id, hash, new Caller(id, tenant, key.priority(), weight),
						new ModelGlobs(key.models()));
				byHash.put(HexFormat.of().formatHex(hash), apiKey);
				byId.put(id, apiKey);
			});
			return new Keys(properties.enabled(), Map.copyOf(byHash), Map.copyOf(byId));
		}
	}

	/** Whether requests need a key. */
	public boolean enabled() {
		return keys.enabled();
	}

	/**
	 * Who sent a request, from its {@code Authorization: Bearer <secret>} or {@code api-key: <secret>} header: with
	 * keys off, always the anonymous caller; with them on, the key, or why the request has none.
	 *
	 * @param authorization the request's {@code Authorization} header, or {@code null}
	 * @param apiKeyHeader its {@code api-key} header, or {@code null}
	 */
	public Authentication authenticate(String authorization, String apiKeyHeader) {
		if (!keys.enabled()) {
			return Authentication.ANONYMOUS;
		}
		String secret;
		if (authorization != null) {
			secret = bearerToken(authorization);
			if (secret == null) {
				return Authentication.refused("The Authorization header must be 'Bearer <your API key>'.");
			}
		}
		else {
			secret = apiKeyHeader;
			if (secret == null || secret.isBlank()) {
				return Authentication.refused("No API key was provided. Send it in an 'Authorization: Bearer "
						+ "<your API key>' header or an 'api-key' header.");
			}
			secret = secret.strip();
		}
		ApiKey key = authenticate(secret);
		return (key != null) ? new Authentication(key, null)
				: Authentication.refused("The API key provided is not valid.");
	}

	/** The token of {@code Bearer <token>}, or {@code null} when the header has another form. */
	private static String bearerToken(String authorization) {
		if (!authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
			return null;
		}
		String token = authorization.substring(BEARER.length()).strip();
		for (int i = 0; i < token.length(); i++) {
			if (Character.isWhitespace(token.charAt(i))) {
				return null;
			}
		}
		return token.isEmpty() ? null : token;
	}

	/** The key whose secret is {@code secret}, or {@code null}. */
	public ApiKey authenticate(String secret) {
		byte[] presented = ApiKeyHash.sha256(secret);
		ApiKey candidate = keys.byHash().get(HexFormat.of().formatHex(presented));
		return (candidate != null && MessageDigest.isEqual(candidate.sha256(), presented)) ? candidate : null;
	}

	/** The key with id {@code id}, or {@code null} (as for the anonymous caller). */
	public ApiKey byId(String id) {
		return keys.byId().get(id);
	}

	/**
	 * The outcome of {@link #authenticate(String, String)}: {@code key} is the caller's key ({@code null} for the
	 * anonymous caller while keys are off); {@code failure}, when not {@code null}, says why the request is refused.
	 */
	public record Authentication(ApiKey key, String failure) {

		static final Authentication ANONYMOUS = new Authentication(null, null);

		static Authentication refused(String failure) {
			return new Authentication(null, failure);
		}

		public boolean refused() {
			return failure != null;
		}

		/** The caller: the key's, or the anonymous caller. */
		public Caller caller() {
			return (key != null) ? key.caller() : Caller.anonymous();
		}

		/** Whether this caller may call {@code model}; the anonymous caller may call every model. */
		public boolean mayCall(String model) {
			return key == null || key.mayCall(model);
		}
	}
}
