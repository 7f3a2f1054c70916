package io.infergate.routing.scheduling.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import io.infergate.routing.scheduling.EndpointFilter;
import io.infergate.routing.scheduling.EndpointLoad;
import io.infergate.routing.scheduling.EndpointPicker;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.ProfileResolver;
import io.infergate.routing.scheduling.SchedulingPlugin;
import io.infergate.routing.scheduling.SchedulingProfile;
import io.infergate.routing.scheduling.SchedulingProfile.WeightedScorer;
import io.infergate.routing.scheduling.load.InFlightLoad;

/**
 * The scheduling profiles, built once at startup from {@link SchedulingProperties} and the plugin beans, looked up
 * by name with {@link SchedulingPlugin#name()}.
 * <p>
 * Construction fails with a {@link SchedulingConfigurationException} listing every problem: two plugins of one kind
 * with the same name, an unknown filter, scorer, picker or load name (with the valid names of that kind), a missing
 * picker, a missing, negative, infinite or NaN weight, or a default profile that is not defined.
 */
public final class SchedulingProfiles implements ProfileResolver {

	private static final String PREFIX = "infergate.scheduling";

	private final Map<String, SchedulingProfile> profiles;

	private final SchedulingProfile defaultProfile;

	public SchedulingProfiles(SchedulingProperties properties, Collection<? extends EndpointFilter> filters,
			Collection<? extends EndpointScorer> scorers, Collection<? extends EndpointPicker> pickers,
			Collection<? extends EndpointLoad> loads) {
		List<String> problems = new ArrayList<>();
		Map<String, EndpointFilter> filtersByName = byName("filter", filters, problems);
		Map<String, EndpointScorer> scorersByName = byName("scorer", scorers, problems);
		Map<String, EndpointPicker> pickersByName = byName("picker", pickers, problems);
		Map<String, EndpointLoad> loadsByName = byName("load", loads, problems);
		Map<String, SchedulingProfile> built = new LinkedHashMap<>();
		properties.getProfiles().forEach((name, definition) -> {
			SchedulingProfile profile = build(name, definition, filtersByName, scorersByName, pickersByName,
					loadsByName, problems);
			if (profile != null) {
				built.put(name, profile);
			}
		});
		String defaultName = properties.getDefaultProfile();
		if (defaultName == null || defaultName.isBlank()) {
			problems.add(PREFIX + ".default-profile: missing; defined profiles: " + names(properties.getProfiles()));
		}
		else if (!properties.getProfiles().containsKey(defaultName)) {
			problems.add(PREFIX + ".default-profile: profile '" + defaultName + "' is not defined; defined profiles: "
					+ names(properties.getProfiles()));
		}
		if (!problems.isEmpty()) {
			throw new SchedulingConfigurationException(problems);
		}
		this.profiles = Collections.unmodifiableMap(built);
		this.defaultProfile = built.get(defaultName);
	}

	/** The profile named {@code name}; throws {@link IllegalArgumentException} listing the names when undefined. */
	public SchedulingProfile get(String name) {
		SchedulingProfile profile = profiles.get(name);
		if (profile == null) {
			throw new IllegalArgumentException(
					"unknown scheduling profile '" + name + "'; defined profiles: " + names(profiles));
		}
		return profile;
	}

	/** The profile names, in definition order. */
	public Set<String> names() {
		return profiles.keySet();
	}

	/** The profile named by {@code infergate.scheduling.default-profile}. */
	public SchedulingProfile defaultProfile() {
		return defaultProfile;
	}

	/** The default profile for {@code null}, else {@link #get(String)}. */
	public SchedulingProfile resolve(String nameOrNull) {
		return nameOrNull == null ? defaultProfile : get(nameOrNull);
	}

	private static <P extends SchedulingPlugin> Map<String, P> byName(String kind, Collection<? extends P> plugins,
			List<String> problems) {
		Map<String, P> byName = new TreeMap<>();
		for (P plugin : plugins) {
			P previous = byName.putIfAbsent(plugin.name(), plugin);
			if (previous != null) {
				problems.add("two " + kind + "s are named '" + plugin.name() + "': "
						+ previous.getClass().getName() + " and " + plugin.getClass().getName());
			}
		}
		return byName;
	}

	private static SchedulingProfile build(String name, SchedulingProperties.Profile definition,
			Map<String, EndpointFilter> filters, Map<String, EndpointScorer> scorers,
			Map<String, EndpointPicker> pickers, Map<String, EndpointLoad> loads, List<String> problems) {
		String at = PREFIX + ".profiles." + name;
		if (definition == null) {
			problems.add(at + ": empty profile; a profile needs a picker; valid pickers: " + names(pickers));
			return null;
		}
		int before = problems.size();
		List<EndpointFilter> profileFilters = new ArrayList<>();
		List<String> filterNames = definition.getFilters() == null ? List.of() : definition.getFilters();
		for (int i = 0; i < filterNames.size(); i++) {
			EndpointFilter filter = filters.get(filterNames.get(i));
			if (filter == null) {
				problems.add(at + ".filters[" + i + "]: unknown filter '" + filterNames.get(i) + "'; valid filters: "
						+ names(filters));
			}
			else {
				profileFilters.add(filter);
			}
		}
		List<WeightedScorer> profileScorers = new ArrayList<>();
		Map<String, Double> weights = definition.getScorers() == null ? Map.of() : definition.getScorers();
		weights.forEach((scorerName, weight) -> {
			EndpointScorer scorer = scorers.get(scorerName);
			if (scorer == null) {
				problems.add(at + ".scorers." + scorerName + ": unknown scorer '" + scorerName
						+ "'; valid scorers: " + names(scorers));
			}
			else if (weight == null || !(weight >= 0) || weight.isInfinite()) {
				problems.add(at + ".scorers." + scorerName + ": weight must be a finite number >= 0, got " + weight);
			}
			else {
				profileScorers.add(new WeightedScorer(scorer, weight));
			}
		});
		String pickerName = definition.getPicker();
		EndpointPicker picker = null;
		if (pickerName == null || pickerName.isBlank()) {
			problems.add(at + ".picker: missing; a profile needs exactly one picker; valid pickers: "
					+ names(pickers));
		}
		else {
			picker = pickers.get(pickerName);
			if (picker == null) {
				problems.add(at + ".picker: unknown picker '" + pickerName + "'; valid pickers: " + names(pickers));
			}
		}
		String loadName = (definition.getLoad() == null) ? InFlightLoad.NAME : definition.getLoad();
		EndpointLoad load = loads.get(loadName);
		if (load == null) {
			problems.add(at + ".load: unknown load '" + loadName + "'; valid loads: " + names(loads));
		}
		if (problems.size() > before) {
			return null;
		}
		return new SchedulingProfile(name, profileFilters, profileScorers, picker, load);
	}

	private static String names(Map<String, ?> byName) {
		return byName.isEmpty() ? "(none)" : String.join(", ", new TreeSet<>(byName.keySet()));
	}
}
