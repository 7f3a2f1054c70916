package io.infergate.routing.scheduling;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.random.RandomGenerator;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.scheduling.load.InFlightLoad;

/**
 * The context of one scheduling decision: the request, the time it is made at, the randomness pickers use, and
 * state that plugins compute once and share (the prompt's block hashes, for instance).
 * <p>
 * One cycle serves one decision on one thread; it is not thread-safe.
 */
public final class SchedulingCycle {

	private final InferenceRequest request;

	private final long nowMillis;

	private final RandomGenerator random;

	private final boolean recordScores;

	private EndpointLoad load = InFlightLoad.INSTANCE;

	private Map<Key<?>, Object> state;

	public SchedulingCycle(InferenceRequest request, long nowMillis, RandomGenerator random, boolean recordScores) {
		this.request = request;
		this.nowMillis = nowMillis;
		this.random = random;
		this.recordScores = recordScores;
	}

	public InferenceRequest request() {
		return request;
	}

	/** Wall-clock (or, in the bench harness, virtual) time of the decision, in epoch milliseconds. */
	public long nowMillis() {
		return nowMillis;
	}

	public RandomGenerator random() {
		return random;
	}

	/** An endpoint's requests as the profile's {@link EndpointLoad} counts them; {@code in-flight} until one is set. */
	public int load(Endpoint endpoint) {
		return load.requests(endpoint);
	}

	/** Sets how {@link #load(Endpoint)} counts; the {@link Scheduler} sets the profile's before any plugin runs. */
	public void useLoad(EndpointLoad load) {
		this.load = load;
	}

	/** Whether this decision keeps every scorer's raw scores for a decision record. */
	public boolean recordScores() {
		return recordScores;
	}

	/** Returns the state under {@code key}, computing it on first use. */
	@SuppressWarnings("unchecked")
	public <T> T computeIfAbsent(Key<T> key, Function<SchedulingCycle, T> compute) {
		if (state == null) {
			state = new IdentityHashMap<>(4);
		}
		Object value = state.get(key);
		if (value == null) {
			value = compute.apply(this);
			state.put(key, value);
		}
		return (T) value;
	}

	/** The state under {@code key}, or {@code null}. */
	@SuppressWarnings("unchecked")
	public <T> T get(Key<T> key) {
		return state == null ? null : (T) state.get(key);
	}

	public <T> void put(Key<T> key, T value) {
		if (state == null) {
			state = new IdentityHashMap<>(4);
		}
		state.put(key, value);
	}

	/** A typed key for cycle state; compare by identity, so declare each as a constant. */
	public static final class Key<T> {

		private final String name;

		public Key(String name) {
			this.name = name;
		}

		@Override
		public String toString() {
			return name;
		}
	}
}
