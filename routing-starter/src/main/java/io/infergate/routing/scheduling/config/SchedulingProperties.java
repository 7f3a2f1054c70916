package io.infergate.routing.scheduling.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.validation.constraints.NotBlank;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Scheduling profiles, under {@code infergate.scheduling}:
 * <pre>
 * infergate:
 *   scheduling:
 *     default-profile: default
 *     profiles:
 *       default:
 *         filters: [ready, saturation]
 *         scorers: {queue: 2, kv-cache: 2}
 *         picker: max-score
 *         load: in-flight         # optional; how load-weighing plugins count an endpoint's requests
 *     plugins:                    # instances beyond the predefined ones, or parameters of a predefined one
 *       prefix-cache-short: {type: prefix-cache, max-blocks: 16}
 *       estimated-ttft: {in-flight-request-micros: 500}
 * </pre>
 * Names and parameters are checked against the plugin types and beans by {@link SchedulingProfiles} at startup.
 */
@Validated
@ConfigurationProperties("infergate.scheduling")
public class SchedulingProperties {

	/** The profile of every pool that names none. */
	@NotBlank
	private String defaultProfile = "default";

	/** Profiles by name. */
	private Map<String, Profile> profiles = new LinkedHashMap<>();

	/**
	 * Plugin instances by name: {@code type} (the type's name; may be left out for a predefined instance's name) and
	 * the type's parameters.
	 */
	private Map<String, Map<String, String>> plugins = new LinkedHashMap<>();

	public String getDefaultProfile() {
		return defaultProfile;
	}

	public void setDefaultProfile(String defaultProfile) {
		this.defaultProfile = defaultProfile;
	}

	public Map<String, Profile> getProfiles() {
		return profiles;
	}

	public void setProfiles(Map<String, Profile> profiles) {
		this.profiles = profiles;
	}

	public Map<String, Map<String, String>> getPlugins() {
		return plugins;
	}

	public void setPlugins(Map<String, Map<String, String>> plugins) {
		this.plugins = plugins;
	}

	/** One profile: filters in order, weighted scorers, one picker, and how load is counted. */
	public static class Profile {

		/** Filter names, run in this order. */
		private List<String> filters = new ArrayList<>();

		/** Scorer names and their weights (finite, >= 0). */
		private Map<String, Double> scorers = new LinkedHashMap<>();

		/** The picker's name. */
		private String picker;

		/** The name of the endpoint load the profile's plugins read; {@code in-flight} when unset. */
		private String load;

		public List<String> getFilters() {
			return filters;
		}

		public void setFilters(List<String> filters) {
			this.filters = filters;
		}

		public Map<String, Double> getScorers() {
			return scorers;
		}

		public void setScorers(Map<String, Double> scorers) {
			this.scorers = scorers;
		}

		public String getPicker() {
			return picker;
		}

		public void setPicker(String picker) {
			this.picker = picker;
		}

		public String getLoad() {
			return load;
		}

		public void setLoad(String load) {
			this.load = load;
		}
	}
}
