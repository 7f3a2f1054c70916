package io.infergate.routing.auth;

import io.infergate.routing.limits.Caller;

/**
 * A configured API key.
 *
 * @param id the key id
 * @param sha256 the SHA-256 of its secret
 * @param caller who requests with this key are from
 * @param models the models it may call
 */
public record ApiKey(String id, byte[] sha256, Caller caller, ModelGlobs models) {

	public boolean mayCall(String model) {
		return models.matches(model);
	}
}
