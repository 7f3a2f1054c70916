package io.infergate.routing.model;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.infergate.routing.actuate.InferenceReport;
import io.infergate.routing.config.ConfigurationCheck;

/**
 * The models of {@code infergate.models}, built once at startup and checked: every name that names something else
 * must exist, and every value must be usable. The problems found, all of them, are reported with their property
 * paths ({@link ConfigurationCheck}), and the gateway does not start until there are none:
 * <ul>
 * <li>a model with none, or more than one, of {@code pool}, {@code targets} and {@code lanes}, or with a
 * model-level {@code target-model}/{@code adapter} beside {@code targets} (each target names its own);</li>
 * <li>a {@code pool} of a model, target or lane that is not configured (with the configured pools);</li>
 * <li>a negative weight, weights that are all 0, or weights that add up to more than {@value Integer#MAX_VALUE};
 * </li>
 * <li>a lane's {@code max-tokens} below 1, and a lane that can never be taken because an earlier lane takes every
 * request it would;</li>
 * <li>an {@code adapter} that is not a name (blank is allowed and means none; whitespace or control characters are
 * not), a blank {@code target-model} or one with control characters. Whether a pool's servers actually serve an
 * adapter or target model is only known once they answer {@code /v1/models}; that is not checked at startup;</li>
 * <li>a fallback that is not a configured model (with the configured models), the model itself, named twice, or
 * part of a loop of fallbacks (reported once per loop, as {@code a → b → a}).</li>
 * </ul>
 */
public final class ConfiguredModels implements ConfigurationCheck {

	private static final String PREFIX = "infergate.models.";

	private final Map<String, ConfiguredModel> models;

	private final List<String> problems;

	/** @param poolNames the configured pools */
	public ConfiguredModels(ModelProperties properties, Set<String> poolNames) {
		List<String> found = new ArrayList<>();
		Map<String, ConfiguredModel> built = new LinkedHashMap<>();
		properties.models().forEach((name, model) -> {
			ConfiguredModel configured = build(name, model, poolNames, found);
			if (configured != null) {
				built.put(name, configured);
			}
		});
		checkFallbacks(properties.models(), found);
		for (ConfiguredModel model : built.values()) {
			model.fallbackOrder(fallbackOrder(model.name(), properties.models()));
		}
		this.models = Collections.unmodifiableMap(built);
		this.problems = List.copyOf(found);
	}

	@Override
	public List<String> problems() {
		return problems;
	}

	/** The model called {@code name}, or {@code null}. */
	public ConfiguredModel get(String name) {
		return models.get(name);
	}

	/** The models in configuration order. */
	public Collection<ConfiguredModel> all() {
		return models.values();
	}

	/** Each model's routes and counts, for {@code /actuator/inference}. */
	public List<InferenceReport.Model> report() {
		List<InferenceReport.Model> report = new ArrayList<>(models.size());
		for (ConfiguredModel model : models.values()) {
			report.add(model.report());
		}
		return report;
	}

	private static ConfiguredModel build(String name, ModelProperties.Model model, Set<String> pools,
			List<String> problems) {
		String at = PREFIX + name;
		if (model == null) {
			problems.add(at + ": empty; give it a pool, targets or lanes");
			return null;
		}
		int before = problems.size();
		List<String> forms = new ArrayList<>(3);
		if (model.pool() != null) {
			forms.add("pool");
		}
		if (!model.targets().isEmpty()) {
			forms.add("targets");
		}
		if (!model.lanes().isEmpty()) {
			forms.add("lanes");
		}
		if (forms.isEmpty()) {
			problems.add(at + ": no route; give it a pool, targets or lanes");
			return null;
		}
		if (forms.size() > 1) {
			problems.add(at + ": " + String.join(" and ", forms)
					+ " are alternatives; give exactly one of pool, targets or lanes");
			return null;
		}
		String targetModel = checkTargetModel(at + ".target-model", model.targetModel(), name, problems);
		String adapter = checkAdapter(at + ".adapter", model.adapter(), problems);
		WeightedTargets targets = null;
		Lanes lanes = null;
		switch (forms.get(0)) {
			case "pool" -> {
				checkPool(at + ".pool", model.pool(), pools, problems);
				targets = new WeightedTargets(name, List.of(new ModelRoute(name, model.pool(), targetModel, adapter)),
						List.of(1));
			}
			case "targets" -> {
				if (model.targetModel() != null || model.adapter() != null) {
					problems.add(at + "." + ((model.targetModel() != null) ? "target-model" : "adapter")
							+ ": not used with targets; give each target its own");
				}
				targets = buildTargets(name, at, model.targets(), pools, problems);
			}
			default -> lanes = buildLanes(name, at, model.lanes(), targetModel, adapter, pools, problems);
		}
		if (problems.size() > before) {
			return null;
		}
		StickyBy stickyBy = (model.stickyBy() != null) ? model.stickyBy() : StickyBy.NONE;
		return new ConfiguredModel(name, targets, lanes, stickyBy, model.fallbacks(), model.price(),
				(model.tokenizer() != null) ? model.tokenizer().path() : null);
	}

	private static WeightedTargets buildTargets(String name, String at,
			List<ModelProperties.WeightedTarget> configured, Set<String> pools, List<String> problems) {
		int before = problems.size();
		List<ModelRoute> routes = new ArrayList<>();
		List<Integer> weights = new ArrayList<>();
		long sum = 0;
		for (int i = 0; i < configured.size(); i++) {
			String targetAt = at + ".targets[" + i + "]";
			ModelProperties.WeightedTarget target = configured.get(i);
			checkPool(targetAt + ".pool", target.pool(), pools, problems);
			String targetModel = checkTargetModel(targetAt + ".target-model", target.targetModel(), name, problems);
			String adapter = checkAdapter(targetAt + ".adapter", target.adapter(), problems);
			if (target.weight() < 0) {
				problems.add(targetAt + ".weight: must be at least 0, got " + target.weight());
			}
			sum += Math.max(0, target.weight());
			routes.add(new ModelRoute(name, target.pool(), targetModel, adapter));
			weights.add(target.weight());
		}
		if (sum == 0) {
			problems.add(at + ".targets: every weight is 0; at least one target needs a positive weight");
		}
		else if (sum > Integer.MAX_VALUE) {
			problems.add(at + ".targets: the weights add up to " + sum + "; keep their sum at most "
					+ Integer.MAX_VALUE + " (only their ratios matter)");
		}
		return (problems.size() > before) ? null : new WeightedTargets(name, routes, weights);
	}

	private static Lanes buildLanes(String name, String at, List<ModelProperties.Lane> configured,
			String targetModel, String adapter, Set<String> pools, List<String> problems) {
		List<ModelRoute> routes = new ArrayList<>();
		List<Integer> bounds = new ArrayList<>();
		int widest = -1;
		for (int i = 0; i < configured.size(); i++) {
			String laneAt = at + ".lanes[" + i + "]";
			ModelProperties.Lane lane = configured.get(i);
			checkPool(laneAt + ".pool", lane.pool(), pools, problems);
			Integer maxTokens = lane.maxTokens();
			if (maxTokens != null && maxTokens < 1) {
				problems.add(laneAt + ".max-tokens: must be at least 1, got " + maxTokens);
			}
			if (widest >= 0) {
				Integer widestBound = bounds.get(widest);
				if (widestBound == null) {
					problems.add(laneAt + ": unreachable; lanes[" + widest + "] before it takes any request");
				}
				else if (maxTokens != null && maxTokens <= widestBound) {
					problems.add(laneAt + ": unreachable; lanes[" + widest + "] before it takes every request of up to "
							+ widestBound + " tokens");
				}
			}
			if (widest < 0 || bounds.get(widest) != null && (maxTokens == null || maxTokens > bounds.get(widest))) {
				widest = i;
			}
			routes.add(new ModelRoute(name, lane.pool(), targetModel, adapter));
			bounds.add(maxTokens);
		}
		return new Lanes(routes, bounds);
	}

	private static void checkPool(String at, String pool, Set<String> pools, List<String> problems) {
		if (pool == null || pool.isBlank()) {
			problems.add(at + ": missing; configured pools: " + names(pools));
		}
		else if (!pools.contains(pool)) {
			problems.add(at + ": no pool named '" + pool + "'; configured pools: " + names(pools));
		}
	}

	/** The target model to send, defaulting to the client-facing name. */
	private static String checkTargetModel(String at, String targetModel, String name, List<String> problems) {
		if (targetModel == null) {
			return name;
		}
		if (targetModel.isBlank() || !targetModel.strip().equals(targetModel) || hasControlCharacter(targetModel)) {
			problems.add(at + ": must be a model name without control characters or surrounding blanks, got '"
					+ targetModel + "'");
		}
		return targetModel;
	}

	/** The adapter, {@code null} when none (blank counts as none). */
	private static String checkAdapter(String at, String adapter, List<String> problems) {
		if (adapter == null || adapter.isEmpty()) {
			return null;
		}
		for (int i = 0; i < adapter.length(); i++) {
			char c = adapter.charAt(i);
			if (Character.isWhitespace(c) || Character.isISOControl(c)) {
				if (!adapter.isBlank()) {
					problems.add(at + ": must be an adapter name without whitespace or control characters, got '"
							+ adapter + "'");
				}
				return null;
			}
		}
		return adapter;
	}

	private static boolean hasControlCharacter(String value) {
		return value.chars().anyMatch(Character::isISOControl);
	}

	private static void checkFallbacks(Map<String, ModelProperties.Model> models, List<String> problems) {
		models.forEach((name, model) -> {
			if (model == null) {
				return;
			}
			Set<String> seen = new HashSet<>();
			List<String> fallbacks = model.fallbacks();
			for (int i = 0; i < fallbacks.size(); i++) {
				String at = PREFIX + name + ".fallbacks[" + i + "]";
				String fallback = fallbacks.get(i);
				if (fallback == null || !models.containsKey(fallback)) {
					problems.add(at + ": no model named '" + fallback + "'; configured models: "
							+ names(models.keySet()));
				}
				else if (fallback.equals(name)) {
					problems.add(at + ": '" + name + "' cannot fall back to itself");
				}
				else if (!seen.add(fallback)) {
					problems.add(at + ": '" + fallback + "' is listed twice");
				}
			}
		});
		Set<Set<String>> reported = new HashSet<>();
		for (String start : models.keySet()) {
			List<String> loop = loopFrom(start, models, new ArrayList<>(), new HashSet<>());
			if (loop != null && reported.add(new HashSet<>(loop))) {
				problems.add(PREFIX + loop.get(0) + ".fallbacks: a loop of fallbacks, "
						+ String.join(" → ", loop) + " → " + loop.get(0));
			}
		}
	}

	/** A loop of fallbacks reachable from {@code model}, as the models on it in order, or {@code null}. */
	private static List<String> loopFrom(String model, Map<String, ModelProperties.Model> models, List<String> path,
			Set<String> done) {
		int onPath = path.indexOf(model);
		if (onPath >= 0) {
			return new ArrayList<>(path.subList(onPath, path.size()));
		}
		if (!done.add(model)) {
			return null;
		}
		ModelProperties.Model definition = models.get(model);
		if (definition == null) {
			return null;
		}
		path.add(model);
		for (String fallback : definition.fallbacks()) {
			if (fallback != null && !fallback.equals(model) && models.containsKey(fallback)) {
				List<String> loop = loopFrom(fallback, models, path, done);
				if (loop != null) {
					return loop;
				}
			}
		}
		path.remove(path.size() - 1);
		return null;
	}

	/** Depth first through the fallbacks' own fallbacks, each model once, never the model itself. */
	private static List<String> fallbackOrder(String model, Map<String, ModelProperties.Model> models) {
		Set<String> order = new LinkedHashSet<>();
		addFallbacks(model, models, order, model);
		return new ArrayList<>(order);
	}

	private static void addFallbacks(String model, Map<String, ModelProperties.Model> models, Set<String> order,
			String origin) {
		ModelProperties.Model definition = models.get(model);
		if (definition == null) {
			return;
		}
		for (String fallback : definition.fallbacks()) {
			if (fallback != null && !fallback.equals(origin) && models.containsKey(fallback) && order.add(fallback)) {
				addFallbacks(fallback, models, order, origin);
			}
		}
	}

	private static String names(Collection<String> names) {
		return names.isEmpty() ? "(none)" : String.join(", ", new TreeSet<>(names));
	}
}
