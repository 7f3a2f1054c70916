package io.infergate.routing.scheduling;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import io.infergate.routing.scheduling.load.InFlightLoad;

/**
 * A named composition: 0..n filters run in order, 0..n weighted scorers, exactly one picker, and the
 * {@link EndpointLoad} its load-weighing plugins read.
 */
public final class SchedulingProfile {

	private final String name;

	private final List<EndpointFilter> filters;

	private final List<WeightedScorer> scorers;

	private final EndpointPicker picker;

	private final EndpointLoad load;

	private final double weightSum;

	private final Map<String, Double> weights;

	private final List<DispatchListener> dispatchListeners;

	/** A profile that counts load as {@code in-flight}. */
	public SchedulingProfile(String name, List<EndpointFilter> filters, List<WeightedScorer> scorers,
			EndpointPicker picker) {
		this(name, filters, scorers, picker, InFlightLoad.INSTANCE);
	}

	public SchedulingProfile(String name, List<EndpointFilter> filters, List<WeightedScorer> scorers,
			EndpointPicker picker, EndpointLoad load) {
		this.name = Objects.requireNonNull(name, "name");
		this.load = Objects.requireNonNull(load, "load");
		this.filters = List.copyOf(filters);
		this.scorers = List.copyOf(scorers);
		this.picker = Objects.requireNonNull(picker, () -> "profile '" + name + "' has no picker");
		double sum = 0;
		Map<String, Double> byName = new LinkedHashMap<>();
		for (WeightedScorer scorer : this.scorers) {
			sum += scorer.weight();
			byName.put(scorer.scorer().name(), scorer.weight());
		}
		this.weightSum = sum;
		this.weights = Collections.unmodifiableMap(byName);
		this.dispatchListeners = collectListeners(this.filters, this.scorers, picker);
	}

	private static List<DispatchListener> collectListeners(List<EndpointFilter> filters,
			List<WeightedScorer> scorers, EndpointPicker picker) {
		Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
		List<DispatchListener> listeners = new ArrayList<>();
		List<Object> plugins = new ArrayList<>(filters);
		scorers.forEach((scorer) -> plugins.add(scorer.scorer()));
		plugins.add(picker);
		for (Object plugin : plugins) {
			if (plugin instanceof DispatchListener listener && seen.add(plugin)) {
				listeners.add(listener);
			}
		}
		return List.copyOf(listeners);
	}

	public String name() {
		return name;
	}

	public List<EndpointFilter> filters() {
		return filters;
	}

	public List<WeightedScorer> scorers() {
		return scorers;
	}

	public EndpointPicker picker() {
		return picker;
	}

	public EndpointLoad load() {
		return load;
	}

	/** Σ weights; totals are divided by it so they stay in [0,1]. */
	public double weightSum() {
		return weightSum;
	}

	/** Each scorer's weight by scorer name, in the profile's order. */
	public Map<String, Double> weights() {
		return weights;
	}

	public List<DispatchListener> dispatchListeners() {
		return dispatchListeners;
	}

	/**
	 * This profile's weights with {@code changes} in place of theirs, in the profile's scorer order.
	 *
	 * @throws IllegalArgumentException for a scorer the profile does not have, or a weight that is negative,
	 * infinite or NaN
	 */
	public Map<String, Double> weightsWith(Map<String, Double> changes) {
		Map<String, Double> changed = new LinkedHashMap<>(weights);
		changes.forEach((scorer, weight) -> {
			if (!weights.containsKey(scorer)) {
				throw new IllegalArgumentException("profile '" + name + "' has no scorer '" + scorer
						+ "'; its scorers: " + weights.keySet());
			}
			if (weight == null || !(weight >= 0) || weight.isInfinite()) {
				throw new IllegalArgumentException(
						"weight of scorer '" + scorer + "' must be a finite number >= 0, got " + weight);
			}
			changed.put(scorer, weight);
		});
		return changed;
	}

	/** This profile with {@link #weightsWith}{@code (changes)}: the same filters, scorers, picker and load. */
	public SchedulingProfile withWeights(Map<String, Double> changes) {
		Map<String, Double> changed = weightsWith(changes);
		List<WeightedScorer> reweighed = new ArrayList<>(scorers.size());
		for (WeightedScorer scorer : scorers) {
			reweighed.add(new WeightedScorer(scorer.scorer(), changed.get(scorer.scorer().name())));
		}
		return new SchedulingProfile(name, filters, reweighed, picker, load);
	}

	@Override
	public String toString() {
		return "SchedulingProfile[" + name + "]";
	}

	/** A scorer and its weight in one profile. */
	public record WeightedScorer(EndpointScorer scorer, double weight) {

		public WeightedScorer {
			Objects.requireNonNull(scorer, "scorer");
			if (!(weight >= 0) || Double.isInfinite(weight)) {
				throw new IllegalArgumentException(
						"weight of scorer '" + scorer.name() + "' must be a finite number >= 0, got " + weight);
			}
		}
	}
}
