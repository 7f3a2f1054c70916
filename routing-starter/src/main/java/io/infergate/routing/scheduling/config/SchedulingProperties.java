package io.infergate.routing.scheduling.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.validation.constraints.NotBlank;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
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
 *
 * @param defaultProfile The profile of every pool that names none.
 * @param profiles Profiles by name.
 * @param plugins Plugin instances by name: {@code type} (the type's name; may be left out for a predefined instance's
 * name) and the type's parameters.
 */
@Validated
@ConfigurationProperties("infergate.scheduling")
public record SchedulingProperties(@DefaultValue("default") @NotBlank String defaultProfile,
		Map<String, Profile> profiles, Map<String, Map<String, String>> plugins) {

	public SchedulingProperties {
		profiles = unmodifiable(profiles);
		plugins = unmodifiable(plugins);
	}

	/** {@code map} in its order, unmodifiable; empty when {@code null}. Values may be {@code null} (left empty). */
	private static <V> Map<String, V> unmodifiable(Map<String, V> map) {
		return (map != null) ? Collections.unmodifiableMap(new LinkedHashMap<>(map)) : Map.of();
	}

	/**
	 * One profile: filters in order, weighted scorers, one picker, and how load is counted.
	 *
	 * @param filters Filter names, run in this order.
	 * @param scorers Scorer names and their weights (finite, >= 0).
	 * @param picker The picker's name.
	 * @param load The name of the endpoint load the profile's plugins read; {@code in-flight} when unset.
	 */
	public record Profile(List<String> filters, Map<String, Double> scorers, String picker, String load) {

		public Profile {
			filters = (filters != null) ? Collections.unmodifiableList(new ArrayList<>(filters)) : List.of();
			scorers = unmodifiable(scorers);
		}
	}
}
