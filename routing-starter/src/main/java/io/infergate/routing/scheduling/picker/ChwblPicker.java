package io.infergate.routing.scheduling.picker;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Positive;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.prefix.ConsistentHashRing;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.scheduling.EndpointPicker;
import io.infergate.routing.scheduling.PluginType;
import io.infergate.routing.scheduling.SchedulingCycle;

import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.stereotype.Component;

/**
 * {@code chwbl}: consistent hashing with bounded loads on the prompt's prefix (KubeAI PrefixHash). Requests that
 * start alike go to the same endpoint, while no endpoint takes more than its share of the load.
 * <ul>
 * <li><b>Key</b>: the first {@code prefix-char-length} characters of the prompt and the adapter
 * ({@link ConsistentHashRing#keyHash}).</li>
 * <li><b>Ring</b>: {@code replication} virtual nodes per endpoint at {@code XXH3("host:port#r")}, one ring per pool,
 * kept while no unknown candidate appears, then rebuilt with it. A rebuild keeps the old members too (an endpoint a
 * filter dropped for a while keeps its place), unless the ring already has twice as many members as there are
 * candidates. Points depend only on endpoint ids, so every gateway replica builds the same ring.</li>
 * <li><b>Walk</b>: from the first point at or after the key's hash, clockwise, skipping endpoints that are not
 * candidates; the first candidate whose load passes the bound is picked. Each candidate is checked once.</li>
 * <li><b>Bound</b> (KubeAI's {@code chwblLoadOK}): with L the candidate's requests as the profile's load counts
 * them ({@link SchedulingCycle#load}; by default the gateway's own in-flight requests), T their sum over the n
 * candidates and c = {@code mean-load-factor}, the candidate passes when T = 0, or when
 * {@code L + 1 ≤ c · (T + 1) / n}: its load with this request stays within c times the mean load counting this
 * request.</li>
 * <li><b>Fallback</b>: when no candidate passes, the first candidate on the walk (the key's home), as KubeAI does.
 * That can only happen while the pool is nearly idle, T < (n − c)/(c − 1), so affinity then wins outright.</li>
 * </ul>
 * A picker rather than a scorer: the bound is a property of the walk order, and turning the walk into a weighted score
 * could let other scorers push a request past the bound or off its home. It ignores the totals, so a profile using it
 * needs no scorers; filters still narrow the candidates (a filtered endpoint is skipped like a non-member).
 * <p>
 * Parameters (of the predefined instance: {@code infergate.scheduling.plugins.chwbl.*}); each instance keeps its own
 * rings: {@code mean-load-factor} c (≥ 1, default 1.25),
 * {@code replication} (1..4096, default 256), {@code prefix-char-length} (> 0, default 100).
 */
public final class ChwblPicker implements EndpointPicker {

	public static final String NAME = "chwbl";

	private final String name;

	private final Parameters config;

	private final ConcurrentHashMap<String, ConsistentHashRing> ringsByPool = new ConcurrentHashMap<>();

	public ChwblPicker(String name, Parameters config) {
		this.name = name;
		this.config = config;
	}

	@Override
	public String name() {
		return name;
	}

	public Parameters parameters() {
		return config;
	}

	@Override
	public boolean readsTotals() {
		return false;
	}

	@Override
	public int pick(SchedulingCycle cycle, List<Endpoint> candidates, double[] totals) {
		int n = candidates.size();
		if (n == 1) {
			return 0;
		}
		InferenceRequest request = cycle.request();
		ConsistentHashRing ring = ring(request.pool(), candidates);
		int[] candidateByOrdinal = new int[ring.memberCount()];
		Arrays.fill(candidateByOrdinal, -1);
		long totalLoad = 0;
		for (int i = 0; i < n; i++) {
			Endpoint candidate = candidates.get(i);
			candidateByOrdinal[ring.ordinalOf(candidate.id())] = i;
			totalLoad += cycle.load(candidate);
		}
		double bound = config.meanLoadFactor() * (totalLoad + 1) / n;
		int home = -1;
		int checked = 0;
		int point = ring.pointAtOrAfter(ConsistentHashRing.keyHash(request.promptText(), config.prefixCharLength(),
				request.adapter()));
		for (int step = 0; step < ring.pointCount() && checked < n; step++, point = ring.nextPoint(point)) {
			int ordinal = ring.ownerAt(point);
			int candidate = candidateByOrdinal[ordinal];
			if (candidate < 0) {
				continue; // not a candidate, or checked already
			}
			candidateByOrdinal[ordinal] = -1;
			checked++;
			if (home < 0) {
				home = candidate;
			}
			if (totalLoad == 0 || cycle.load(candidates.get(candidate)) + 1 <= bound) {
				return candidate;
			}
		}
		return home;
	}

	/** The pool's ring, rebuilt when a candidate is not on it. */
	private ConsistentHashRing ring(String pool, List<Endpoint> candidates) {
		ConsistentHashRing ring = ringsByPool.get(pool);
		if (ring != null && covers(ring, candidates)) {
			return ring;
		}
		return ringsByPool.compute(pool,
				(name, current) -> (current != null && covers(current, candidates)) ? current
						: rebuild(current, candidates));
	}

	private static boolean covers(ConsistentHashRing ring, List<Endpoint> candidates) {
		for (int i = 0, n = candidates.size(); i < n; i++) {
			if (ring.ordinalOf(candidates.get(i).id()) < 0) {
				return false;
			}
		}
		return true;
	}

	/** The candidates plus the current members, unless those are already twice as many as the candidates. */
	private ConsistentHashRing rebuild(ConsistentHashRing current, List<Endpoint> candidates) {
		List<EndpointId> members = new ArrayList<>();
		for (Endpoint candidate : candidates) {
			members.add(candidate.id());
		}
		if (current != null && current.memberCount() < 2 * candidates.size()) {
			for (int ordinal = 0; ordinal < current.memberCount(); ordinal++) {
				members.add(current.member(ordinal));
			}
		}
		return ConsistentHashRing.of(members, config.replication());
	}

	/**
	 * Parameters of {@code chwbl}.
	 *
	 * @param meanLoadFactor c: the most load a candidate may carry, as a multiple of the mean; at least 1; default 1.25
	 * @param replication virtual nodes per endpoint; 1..4096; default 256
	 * @param prefixCharLength prompt characters in the routing key; default 100
	 */
	public record Parameters(@DefaultValue("1.25") @DecimalMin("1.0") double meanLoadFactor,
			@DefaultValue("256") @Positive @Max(4096) int replication,
			@DefaultValue("100") @Positive int prefixCharLength) {

		public static Parameters defaults() {
			return new Parameters(1.25, 256, 100);
		}
	}

	/** The {@code chwbl} type. */
	@Component
	public static final class Type extends PluginType<EndpointPicker, Parameters> {

		public Type() {
			super(EndpointPicker.class, NAME, Parameters.class);
		}

		@Override
		public EndpointPicker create(String name, Parameters parameters) {
			return new ChwblPicker(name, parameters);
		}
	}
}
