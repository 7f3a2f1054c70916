package io.infergate.routing.scheduling.scorer;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.validation.constraints.NotNull;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointSnapshot;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.PluginParameterException;
import io.infergate.routing.scheduling.PluginType;
import io.infergate.routing.scheduling.SchedulingCycle;

import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.stereotype.Component;

/**
 * {@code metric}: prefers the endpoint with the lowest (or highest) value of one signal, such as its engine's queue.
 * <p>
 * With v the candidate's value of {@code metric}, and lo and hi the bounds {@code min} and {@code max} when given,
 * else the least and greatest value among the candidates that have one:
 * <pre>
 * minimize: score = (hi − v) / (hi − lo)
 * maximize: score = (v − lo) / (hi − lo)
 * </pre>
 * clamped to [0,1]. Over the candidates (no bounds) the best scores 1, the worst 0, and equal values score a neutral 1.
 * A candidate without the value (no snapshot, for a scraped signal) scores 0 and is left out of lo and hi. With
 * bounds the score is absolute: a value at or beyond the good bound scores 1 wherever the others stand.
 * <p>
 * Predefined instances, each exactly the scorer it replaced:
 * <ul>
 * <li>{@code queue}: {@code waiting-requests}, minimize;</li>
 * <li>{@code running-requests}: {@code running-requests}, minimize;</li>
 * <li>{@code least-request}: {@code load}, minimize (the profile's load; by default the gateway's own in-flight
 * requests, fresh at every dispatch, so it needs no scrape);</li>
 * <li>{@code kv-cache}: {@code kv-cache-usage}, minimize, bounds 0 and 1: {@code 1 − kvCacheUsage}.</li>
 * </ul>
 * Parameters: {@code metric} (required), {@code direction} ({@code minimize} | {@code maximize}, default
 * {@code minimize}), {@code min} and {@code max} (together or not at all, min &lt; max). No allocation per decision.
 */
public final class MetricScorer implements EndpointScorer {

	public static final String NAME = "metric";

	public static final String QUEUE = "queue";

	public static final String RUNNING_REQUESTS = "running-requests";

	public static final String LEAST_REQUEST = "least-request";

	public static final String KV_CACHE = "kv-cache";

	private static final Map<String, Parameters> PREDEFINED = predefined();

	private final String name;

	private final Metric metric;

	private final boolean maximize;

	private final boolean bounded;

	private final double min;

	private final double max;

	public MetricScorer(String name, Parameters parameters) {
		this.name = name;
		this.metric = parameters.metric();
		this.maximize = parameters.direction() == Direction.MAXIMIZE;
		this.bounded = parameters.min() != null || parameters.max() != null;
		if (bounded && (parameters.min() == null || parameters.max() == null)) {
			throw new PluginParameterException((parameters.min() == null) ? "min" : "max",
					"missing; min and max are given together or not at all");
		}
		if (bounded && !(parameters.min() < parameters.max())) {
			throw new PluginParameterException("max", "must be greater than min (" + parameters.min() + "), got "
					+ parameters.max());
		}
		this.min = bounded ? parameters.min() : Double.NaN;
		this.max = bounded ? parameters.max() : Double.NaN;
	}

	/** The predefined instance named {@code name}: {@link #QUEUE}, {@link #RUNNING_REQUESTS}, ... */
	public static MetricScorer predefined(String name) {
		Parameters parameters = PREDEFINED.get(name);
		if (parameters == null) {
			throw new IllegalArgumentException("no predefined metric scorer '" + name + "'; predefined: "
					+ PREDEFINED.keySet());
		}
		return new MetricScorer(name, parameters);
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	public void score(SchedulingCycle cycle, List<Endpoint> candidates, double[] scores) {
		int n = candidates.size();
		metric.read(cycle, candidates, scores);
		if (bounded) {
			MinMax.withinBounds(scores, n, min, max, maximize);
		}
		else if (maximize) {
			MinMax.higherIsBetter(scores, n);
		}
		else {
			MinMax.lowerIsBetter(scores, n);
		}
	}

	private static Map<String, Parameters> predefined() {
		Map<String, Parameters> predefined = new LinkedHashMap<>();
		predefined.put(QUEUE, new Parameters(Metric.WAITING_REQUESTS, Direction.MINIMIZE, null, null));
		predefined.put(RUNNING_REQUESTS, new Parameters(Metric.RUNNING_REQUESTS, Direction.MINIMIZE, null, null));
		predefined.put(LEAST_REQUEST, new Parameters(Metric.LOAD, Direction.MINIMIZE, null, null));
		predefined.put(KV_CACHE, new Parameters(Metric.KV_CACHE_USAGE, Direction.MINIMIZE, 0.0, 1.0));
		return Map.copyOf(predefined);
	}

	/**
	 * The signals a {@code metric} scorer reads; {@code NaN} where the candidate has none. Each signal reads every
	 * candidate in a loop of its own: one loop calling a method each signal overrides would be a call site of many
	 * receivers, which the JIT does not inline, on the decision's hottest path.
	 */
	public enum Metric {

		/** Requests waiting in the engine's queue, as last scraped. */
		WAITING_REQUESTS {
			@Override
			void read(SchedulingCycle cycle, List<Endpoint> candidates, double[] values) {
				for (int i = 0, n = candidates.size(); i < n; i++) {
					EndpointSnapshot snapshot = candidates.get(i).snapshot();
					values[i] = (snapshot == null) ? Double.NaN : snapshot.metrics().waitingRequests();
				}
			}
		},

		/** Requests in the engine's running batch, as last scraped. */
		RUNNING_REQUESTS {
			@Override
			void read(SchedulingCycle cycle, List<Endpoint> candidates, double[] values) {
				for (int i = 0, n = candidates.size(); i < n; i++) {
					EndpointSnapshot snapshot = candidates.get(i).snapshot();
					values[i] = (snapshot == null) ? Double.NaN : snapshot.metrics().runningRequests();
				}
			}
		},

		/** KV-cache use, 0..1, as last scraped. */
		KV_CACHE_USAGE {
			@Override
			void read(SchedulingCycle cycle, List<Endpoint> candidates, double[] values) {
				for (int i = 0, n = candidates.size(); i < n; i++) {
					EndpointSnapshot snapshot = candidates.get(i).snapshot();
					values[i] = (snapshot == null) ? Double.NaN : snapshot.metrics().kvCacheUsage();
				}
			}
		},

		/** The endpoint's requests as the profile's load counts them ({@link SchedulingCycle#load}). */
		LOAD {
			@Override
			void read(SchedulingCycle cycle, List<Endpoint> candidates, double[] values) {
				for (int i = 0, n = candidates.size(); i < n; i++) {
					values[i] = cycle.load(candidates.get(i));
				}
			}
		},

		/** Requests this gateway replica has in flight on the endpoint, whatever the profile's load. */
		IN_FLIGHT_REQUESTS {
			@Override
			void read(SchedulingCycle cycle, List<Endpoint> candidates, double[] values) {
				for (int i = 0, n = candidates.size(); i < n; i++) {
					values[i] = Math.max(0, candidates.get(i).inFlightRequests());
				}
			}
		},

		/** Estimated tokens (prompt plus max tokens) this gateway replica has in flight on the endpoint. */
		IN_FLIGHT_TOKENS {
			@Override
			void read(SchedulingCycle cycle, List<Endpoint> candidates, double[] values) {
				for (int i = 0, n = candidates.size(); i < n; i++) {
					values[i] = Math.max(0, candidates.get(i).inFlightTokens());
				}
			}
		};

		/** Writes each candidate's value into {@code values}, in the candidates' order. */
		abstract void read(SchedulingCycle cycle, List<Endpoint> candidates, double[] values);
	}

	/** Whether a lower or a higher value is better. */
	public enum Direction {

		MINIMIZE, MAXIMIZE
	}

	/**
	 * Parameters of {@code metric}.
	 *
	 * @param metric the signal scored; required
	 * @param direction whether lower ({@code minimize}, the default) or higher values are better
	 * @param min the value at which a minimizing score is 1 (a maximizing one 0); with {@code max}, or neither
	 * @param max the value at which a minimizing score is 0 (a maximizing one 1); greater than {@code min}
	 */
	public record Parameters(@NotNull Metric metric, @DefaultValue("minimize") @NotNull Direction direction, Double min,
			Double max) {
	}

	/** The {@code metric} type, with {@code queue}, {@code running-requests}, {@code least-request} and {@code kv-cache}. */
	@Component
	public static final class Type extends PluginType<EndpointScorer, Parameters> {

		public Type() {
			super(EndpointScorer.class, NAME, Parameters.class);
		}

		@Override
		public EndpointScorer create(String name, Parameters parameters) {
			return new MetricScorer(name, parameters);
		}

		@Override
		public Map<String, Map<String, String>> predefinedInstances() {
			Map<String, Map<String, String>> instances = new LinkedHashMap<>();
			PREDEFINED.forEach((name, parameters) -> instances.put(name, asProperties(parameters)));
			return instances;
		}
	}
}
