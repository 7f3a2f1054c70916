package io.infergate.routing.auth;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import io.infergate.routing.limits.Limits;

/**
 * API keys and tenants, {@code infergate.auth.*}. Off by default (and in demo mode): every request is then the
 * anonymous tenant's. Checked at startup with the rate limits, see {@link LimitsConfigurationCheck}.
 *
 * @param enabled Whether inference requests need an API key.
 * @param keys The API keys by id; the id is shown in logs, metrics and the dashboard, never the secret.
 * @param tenants Tenants by name: fairness weight and limits shared by the tenant's keys.
 */
@ConfigurationProperties("infergate.auth")
public record AuthProperties(@DefaultValue("false") boolean enabled, Map<String, Key> keys,
		Map<String, Tenant> tenants) {

	public AuthProperties {
		keys = unmodifiable(keys);
		tenants = unmodifiable(tenants);
	}

	/** {@code map} in its order, unmodifiable; empty when {@code null}. Values may be {@code null} (left empty). */
	private static <V> Map<String, V> unmodifiable(Map<String, V> map) {
		return (map != null) ? Collections.unmodifiableMap(new LinkedHashMap<>(map)) : Map.of();
	}

	/**
	 * One API key.
	 *
	 * @param sha256 Hex SHA-256 of the secret the client sends; a plain secret is refused.
	 * @param tenant The key's tenant; defaults to the key id.
	 * @param priority LimitDecision priority; below 0 is sheddable.
	 * @param models Globs ({@code *}, {@code ?}) of the model names the key may call.
	 * @param limits The key's own limits; unset fields come from {@code infergate.rate-limits.default-limits}.
	 * @param modelLimits Limits of this key calling one model, by model name.
	 */
	public record Key(String sha256, String tenant, int priority, @DefaultValue("*") List<String> models,
			Limits limits, Map<String, Limits> modelLimits) {

		public Key {
			models = (models != null) ? Collections.unmodifiableList(new ArrayList<>(models)) : List.of("*");
			modelLimits = unmodifiable(modelLimits);
		}

		/** The components, with the hash masked (a plain secret may have been pasted there by mistake). */
		@Override
		public String toString() {
			return "Key[sha256=" + ((sha256 != null) ? "******" : null) + ", tenant=" + tenant + ", priority="
					+ priority + ", models=" + models + ", limits=" + limits + ", modelLimits=" + modelLimits + "]";
		}
	}

	/**
	 * One tenant.
	 *
	 * @param weight Fairness weight between tenants.
	 * @param limits Limits shared by all the tenant's keys.
	 */
	public record Tenant(@DefaultValue("1") double weight, Limits limits) {
	}
}
