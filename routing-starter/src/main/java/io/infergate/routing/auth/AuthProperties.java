package io.infergate.routing.auth;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

import io.infergate.routing.limits.Limits;

/**
 * API keys and tenants, {@code infergate.auth.*}. Off by default (and in demo mode): every request is then the
 * anonymous tenant's. Checked at startup with the rate limits, see {@link LimitsConfigurationCheck}.
 */
@ConfigurationProperties("infergate.auth")
public class AuthProperties {

	/** Whether inference requests need an API key. */
	private boolean enabled;

	/** The API keys by id; the id is shown in logs, metrics and the dashboard, never the secret. */
	private Map<String, Key> keys = new LinkedHashMap<>();

	/** Tenants by name: fairness weight and limits shared by the tenant's keys. */
	private Map<String, Tenant> tenants = new LinkedHashMap<>();

	public boolean isEnabled() {
		return enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Map<String, Key> getKeys() {
		return keys;
	}

	public void setKeys(Map<String, Key> keys) {
		this.keys = keys;
	}

	public Map<String, Tenant> getTenants() {
		return tenants;
	}

	public void setTenants(Map<String, Tenant> tenants) {
		this.tenants = tenants;
	}

	public static class Key {

		/** Hex SHA-256 of the secret the client sends; a plain secret is refused. */
		private String sha256;

		/** The key's tenant; defaults to the key id. */
		private String tenant;

		/** LimitDecision priority; below 0 is sheddable. */
		private int priority;

		/** Globs ({@code *}, {@code ?}) of the model names the key may call. */
		private List<String> models = new ArrayList<>(List.of("*"));

		/** The key's own limits; unset fields come from {@code infergate.rate-limits.default-limits}. */
		private Limits limits;

		/** Limits of this key calling one model, by model name. */
		private Map<String, Limits> modelLimits = new LinkedHashMap<>();

		public String getSha256() {
			return sha256;
		}

		public void setSha256(String sha256) {
			this.sha256 = sha256;
		}

		public String getTenant() {
			return tenant;
		}

		public void setTenant(String tenant) {
			this.tenant = tenant;
		}

		public int getPriority() {
			return priority;
		}

		public void setPriority(int priority) {
			this.priority = priority;
		}

		public List<String> getModels() {
			return models;
		}

		public void setModels(List<String> models) {
			this.models = models;
		}

		public Limits getLimits() {
			return limits;
		}

		public void setLimits(Limits limits) {
			this.limits = limits;
		}

		public Map<String, Limits> getModelLimits() {
			return modelLimits;
		}

		public void setModelLimits(Map<String, Limits> modelLimits) {
			this.modelLimits = modelLimits;
		}
	}

	public static class Tenant {

		/** Fairness weight between tenants. */
		private double weight = 1;

		/** Limits shared by all the tenant's keys. */
		private Limits limits;

		public double getWeight() {
			return weight;
		}

		public void setWeight(double weight) {
			this.weight = weight;
		}

		public Limits getLimits() {
			return limits;
		}

		public void setLimits(Limits limits) {
			this.limits = limits;
		}
	}
}
