package io.infergate.routing.scheduling.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import io.infergate.routing.scheduling.EndpointFilter;
import io.infergate.routing.scheduling.EndpointLoad;
import io.infergate.routing.scheduling.EndpointPicker;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.PluginType;
import io.infergate.routing.scheduling.ProfileResolver;
import io.infergate.routing.scheduling.SchedulingPlugin;
import io.infergate.routing.scheduling.SchedulingProfile;
import io.infergate.routing.scheduling.SchedulingProfile.WeightedScorer;
import io.infergate.routing.scheduling.load.InFlightLoad;

/**
 * The scheduling profiles, built once at startup from {@link SchedulingProperties} and the plugin instances
 * ({@link PluginInstances}: the {@link PluginType}s' predefined and declared instances, and plugin beans), looked up
 * by name with {@link SchedulingPlugin#name()}.
 * <p>
 * Construction fails with a {@link SchedulingConfigurationException} listing every problem: a plugin declaration's
 * unknown or missing type, unknown parameter or bad value, two plugins of one kind with the same name, a profile's
 * unknown filter, scorer, picker or load name (with the valid names of that kind), a missing picker, a missing,
 * negative, infinite or NaN weight, or a default profile that is not defined.
 */
public final class SchedulingProfiles implements ProfileResolver {

	private static final String PREFIX = "infergate.scheduling";

	/** Replaced whole when a profile's weights change at runtime; a request keeps the profile it resolved. */
	private volatile Map<String, SchedulingProfile> profiles;

	private volatile SchedulingProfile defaultProfile;

	private volatile String defaultName;

	private volatile PluginInstances instances;

	private final List<Consumer<SchedulingProfiles>> replacementListeners = new CopyOnWriteArrayList<>();

	/**
	 * @param types the plugin types, whose instances are predefined or declared under
	 * {@code infergate.scheduling.plugins}
	 * @param plugins plugins that are instances already, each under its {@link SchedulingPlugin#name()}
	 */
	public SchedulingProfiles(SchedulingProperties properties, Collection<? extends PluginType<?, ?>> types,
			Collection<? extends SchedulingPlugin> plugins) {
		this.instances = new PluginInstances(types, plugins, properties.plugins());
		List<String> problems = new ArrayList<>(instances.problems());
		Map<String, SchedulingProfile> built = new LinkedHashMap<>();
		properties.profiles().forEach((name, definition) -> {
			SchedulingProfile profile = build(name, definition, problems);
			if (profile != null) {
				built.put(name, profile);
			}
		});
		String defaultName = properties.defaultProfile();
		if (defaultName == null || defaultName.isBlank()) {
			problems.add(PREFIX + ".default-profile: missing; defined profiles: " + names(properties.profiles()));
		}
		else if (!properties.profiles().containsKey(defaultName)) {
			problems.add(PREFIX + ".default-profile: profile '" + defaultName + "' is not defined; defined profiles: "
					+ names(properties.profiles()));
		}
		if (!problems.isEmpty()) {
			throw new SchedulingConfigurationException(problems);
		}
		this.profiles = Collections.unmodifiableMap(built);
		this.defaultName = defaultName;
		this.defaultProfile = built.get(defaultName);
	}

	/**
	 * After a configuration reload: every profile, plugin instance and the default become {@code fresh}'s, built from
	 * the new configuration. A request already scheduling keeps the profile it resolved. Plugin instances are new, so
	 * what they remember (a {@code session-affinity} instance's sessions) starts again.
	 */
	public synchronized void replaceWith(SchedulingProfiles fresh) {
		this.instances = fresh.instances;
		this.profiles = fresh.profiles;
		this.defaultName = fresh.defaultName;
		this.defaultProfile = fresh.defaultProfile;
		for (Consumer<SchedulingProfiles> listener : replacementListeners) {
			listener.accept(this);
		}
	}

	/** Tells {@code listener} after each {@link #replaceWith}, so it can attach to the new plugin instances. */
	public void addReplacementListener(Consumer<SchedulingProfiles> listener) {
		replacementListeners.add(listener);
	}

	/**
	 * Gives the profile named {@code name} new weights at runtime: a weight given here replaces the profile's, the
	 * others keep theirs; filters, picker and load stay. Requests already scheduling keep the profile they resolved;
	 * the next ones get the new one.
	 *
	 * @return the profile as it is now
	 * @throws IllegalArgumentException for an unknown profile, a scorer the profile does not have, or a weight that is
	 * negative, infinite or NaN
	 */
	public synchronized SchedulingProfile reweigh(String name, Map<String, Double> weights) {
		SchedulingProfile replaced = get(name).withWeights(weights);
		Map<String, SchedulingProfile> next = new LinkedHashMap<>(profiles);
		next.put(name, replaced);
		profiles = Collections.unmodifiableMap(next);
		if (name.equals(defaultName)) {
			defaultProfile = replaced;
		}
		return replaced;
	}

	/** Every instance of {@code kind} ({@code EndpointScorer.class}, ...) by name, whether a profile uses it or not. */
	public <P extends SchedulingPlugin> Map<String, P> plugins(Class<P> kind) {
		return instances.of(kind);
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

	private SchedulingProfile build(String name, SchedulingProperties.Profile definition, List<String> problems) {
		String at = PREFIX + ".profiles." + name;
		Map<String, EndpointPicker> pickers = instances.of(EndpointPicker.class);
		if (definition == null) {
			problems.add(at + ": empty profile; a profile needs a picker; valid pickers: " + names(pickers));
			return null;
		}
		int before = problems.size();
		List<EndpointFilter> profileFilters = new ArrayList<>();
		List<String> filterNames = definition.filters() == null ? List.of() : definition.filters();
		for (int i = 0; i < filterNames.size(); i++) {
			EndpointFilter filter = lookUp(EndpointFilter.class, filterNames.get(i), at + ".filters[" + i + "]",
					problems);
			if (filter != null) {
				profileFilters.add(filter);
			}
		}
		List<WeightedScorer> profileScorers = new ArrayList<>();
		Map<String, Double> weights = definition.scorers() == null ? Map.of() : definition.scorers();
		weights.forEach((scorerName, weight) -> {
			EndpointScorer scorer = lookUp(EndpointScorer.class, scorerName, at + ".scorers." + scorerName, problems);
			if (scorer != null && (weight == null || !(weight >= 0) || weight.isInfinite())) {
				problems.add(at + ".scorers." + scorerName + ": weight must be a finite number >= 0, got " + weight);
			}
			else if (scorer != null) {
				profileScorers.add(new WeightedScorer(scorer, weight));
			}
		});
		String pickerName = definition.picker();
		EndpointPicker picker = null;
		if (pickerName == null || pickerName.isBlank()) {
			problems.add(at + ".picker: missing; a profile needs exactly one picker; valid pickers: "
					+ names(pickers));
		}
		else {
			picker = lookUp(EndpointPicker.class, pickerName, at + ".picker", problems);
		}
		String loadName = (definition.load() == null) ? InFlightLoad.NAME : definition.load();
		EndpointLoad load = lookUp(EndpointLoad.class, loadName, at + ".load", problems);
		if (problems.size() > before) {
			return null;
		}
		return new SchedulingProfile(name, profileFilters, profileScorers, picker, load);
	}

	/**
	 * The {@code kind} instance named {@code name}, or null with a problem at {@code at}; none for an instance whose
	 * own declaration was reported broken.
	 */
	private <P extends SchedulingPlugin> P lookUp(Class<P> kind, String name, String at, List<String> problems) {
		Map<String, P> byName = instances.of(kind);
		P plugin = byName.get(name);
		if (plugin == null && instances.isBroken(kind, name)) {
			problems.add(at + ": " + PluginInstances.kindName(kind) + " '" + name
					+ "' cannot be built; its own problems are listed");
		}
		else if (plugin == null) {
			String kindName = PluginInstances.kindName(kind);
			problems.add(at + ": unknown " + kindName + " '" + name + "'; valid " + kindName + "s: " + names(byName)
					+ " (or declare one under " + PluginInstances.PREFIX + ")");
		}
		return plugin;
	}

	private static String names(Map<String, ?> byName) {
		return byName.isEmpty() ? "(none)" : String.join(", ", new TreeSet<>(byName.keySet()));
	}
}
