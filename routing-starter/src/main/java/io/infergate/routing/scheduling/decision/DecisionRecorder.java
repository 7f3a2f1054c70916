package io.infergate.routing.scheduling.decision;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.scheduling.SchedulingCycle;
import io.infergate.routing.scheduling.SchedulingProfile;
import io.infergate.routing.scheduling.SchedulingResult;

/**
 * Keeps the most recent decisions for the dashboard and meters every decision.
 * <p>
 * Usage, per request: {@code boolean keep = recorder.shouldRecord();} then build the {@link SchedulingCycle} with
 * {@code recordScores = keep} (the scheduler keeps raw scores only then), schedule, and pass the result to
 * exactly one of {@link #record}, {@link #recordFailedOpen} or {@link #recordError}.
 * <ul>
 * <li><b>Sampling:</b> {@link #shouldRecord()} says yes to at most {@code max-per-second} decisions per
 * wall-clock second (default 50), and no to the rest with one clock read and one atomic read. A decision that did
 * not pick normally (no candidates, failed open, error) is also kept when its cycle was not sampled, if the
 * second's budget allows.</li>
 * <li><b>Buffer:</b> the last {@code capacity} records (default 100), overwritten oldest first; {@link #recent()}
 * returns them newest first. Each record carries a sequence number, one more than the record kept before it, so a
 * reader can ask only for what is new ({@link #recentSince(long)}).</li>
 * <li><b>Meters</b>, for every decision whether kept or not: timer {@value #DURATION_METER} (tags {@code pool},
 * {@code profile}) and counter {@value #PICKS_METER} (tags {@code pool}, {@code endpoint}), looked up without
 * allocating once created. The pick counts are also readable here ({@link #picks}), whatever meter registry is
 * present.</li>
 * </ul>
 * Thread-safe.
 */
public final class DecisionRecorder {

	public static final String DURATION_METER = "infergate.scheduling.duration";

	public static final String PICKS_METER = "infergate.scheduling.picks";

	private static final String NO_POOL = "none";

	private static final String NO_PROFILE = "none";

	private final int maxPerSecond;

	private final Clock clock;

	private final MeterRegistry registry;

	/** Epoch second in the high 32 bits, decisions sampled in that second in the low 32. */
	private final AtomicLong window = new AtomicLong();

	private final DecisionRecord[] ring;

	private int ringNext;

	private int ringSize;

	/** Records kept so far; the sequence number of the newest. */
	private long kept;

	private final ConcurrentMap<String, ConcurrentMap<String, Timer>> durations = new ConcurrentHashMap<>();

	private final ConcurrentMap<String, ConcurrentMap<EndpointId, LongAdder>> picks = new ConcurrentHashMap<>();

	public DecisionRecorder(DecisionRecorderProperties properties, Clock clock, MeterRegistry registry) {
		this.ring = new DecisionRecord[properties.capacity()];
		this.maxPerSecond = properties.capacity() == 0 ? 0 : properties.maxPerSecond();
		this.clock = clock;
		this.registry = registry;
	}

	/** Whether the next decision should keep its scores for a record; call it once, before scheduling. */
	public boolean shouldRecord() {
		if (maxPerSecond == 0) {
			return false;
		}
		long second = clock.millis() / 1000;
		while (true) {
			long state = window.get();
			long stateSecond = state >>> 32;
			long count = state & 0xFFFF_FFFFL;
			long next;
			if (stateSecond == second) {
				if (count >= maxPerSecond) {
					return false;
				}
				next = state + 1;
			}
			else {
				next = (second << 32) | 1;
			}
			if (window.compareAndSet(state, next)) {
				return true;
			}
		}
	}

	/** Meters a decision, and keeps its record when the cycle was sampled (or, without a pick, budget allows). */
	public void record(SchedulingCycle cycle, SchedulingResult result) {
		DecisionOutcome outcome = result.hasPick() ? DecisionOutcome.PICKED : DecisionOutcome.NO_CANDIDATES;
		finish(cycle, result, outcome, result.chosen());
	}

	/**
	 * Meters and records a decision whose filters left no candidate but whose pool, failing open, sent the request
	 * to {@code chosen} anyway.
	 */
	public void recordFailedOpen(SchedulingCycle cycle, SchedulingResult result, Endpoint chosen) {
		finish(cycle, result, DecisionOutcome.FAILED_OPEN, chosen);
	}

	/** Meters and records a decision that threw; {@code profile} is {@code null} when none was resolved. */
	public void recordError(SchedulingCycle cycle, SchedulingProfile profile, long durationNanos) {
		String pool = poolOf(cycle);
		duration(pool, profile == null ? NO_PROFILE : profile.name()).record(durationNanos, TimeUnit.NANOSECONDS);
		if (cycle.recordScores() || shouldRecord()) {
			add((sequence) -> DecisionRecord.ofError(sequence, cycle, profile, durationNanos));
		}
	}

	/** The kept records, newest first. */
	public List<DecisionRecord> recent() {
		synchronized (ring) {
			List<DecisionRecord> recent = new ArrayList<>(ringSize);
			for (int i = 1; i <= ringSize; i++) {
				recent.add(ring[Math.floorMod(ringNext - i, ring.length)]);
			}
			return recent;
		}
	}

	/** The kept records numbered above {@code sequence}, newest first. */
	public List<DecisionRecord> recentSince(long sequence) {
		synchronized (ring) {
			List<DecisionRecord> recent = new ArrayList<>((int) Math.min(ringSize, Math.max(0, kept - sequence)));
			for (int i = 1; i <= ringSize; i++) {
				DecisionRecord record = ring[Math.floorMod(ringNext - i, ring.length)];
				if (record.sequence() <= sequence) {
					break;
				}
				recent.add(record);
			}
			return recent;
		}
	}

	/** Requests sent to {@code endpoint} of {@code pool} since startup, as counted by {@value #PICKS_METER}. */
	public long picks(String pool, EndpointId endpoint) {
		ConcurrentMap<EndpointId, LongAdder> byEndpoint = picks.get(pool);
		LongAdder count = (byEndpoint != null) ? byEndpoint.get(endpoint) : null;
		return (count != null) ? count.sum() : 0;
	}

	/** How many records are kept at most. */
	public int capacity() {
		return ring.length;
	}

	private void finish(SchedulingCycle cycle, SchedulingResult result, DecisionOutcome outcome, Endpoint chosen) {
		String pool = poolOf(cycle);
		duration(pool, result.profile().name()).record(result.durationNanos(), TimeUnit.NANOSECONDS);
		if (chosen != null) {
			pickCount(pool, chosen.id()).increment();
		}
		if (cycle.recordScores() || (outcome != DecisionOutcome.PICKED && shouldRecord())) {
			add((sequence) -> DecisionRecord.of(sequence, cycle, result, outcome, chosen));
		}
	}

	/** Builds the record with the next sequence number and keeps it, under one lock so numbers follow ring order. */
	private void add(LongFunction<DecisionRecord> record) {
		if (ring.length == 0) {
			return;
		}
		synchronized (ring) {
			kept++;
			ring[ringNext] = record.apply(kept);
			ringNext = (ringNext + 1) % ring.length;
			ringSize = Math.min(ringSize + 1, ring.length);
		}
	}

	private static String poolOf(SchedulingCycle cycle) {
		String pool = cycle.request().pool();
		return pool == null ? NO_POOL : pool;
	}

	private Timer duration(String pool, String profile) {
		ConcurrentMap<String, Timer> byProfile = durations.get(pool);
		if (byProfile == null) {
			byProfile = durations.computeIfAbsent(pool, (key) -> new ConcurrentHashMap<>());
		}
		Timer timer = byProfile.get(profile);
		if (timer == null) {
			timer = byProfile.computeIfAbsent(profile, (key) -> Timer.builder(DURATION_METER)
				.description("Time to schedule one request: filters, scorers and picker")
				.tag("pool", pool)
				.tag("profile", key)
				.register(registry));
		}
		return timer;
	}

	private LongAdder pickCount(String pool, EndpointId endpoint) {
		ConcurrentMap<EndpointId, LongAdder> byEndpoint = picks.get(pool);
		if (byEndpoint == null) {
			byEndpoint = picks.computeIfAbsent(pool, (key) -> new ConcurrentHashMap<>());
		}
		LongAdder count = byEndpoint.get(endpoint);
		if (count == null) {
			count = byEndpoint.computeIfAbsent(endpoint, (key) -> {
				LongAdder adder = new LongAdder();
				FunctionCounter.builder(PICKS_METER, adder, LongAdder::sum)
					.description("Requests the scheduler sent to each endpoint")
					.tag("pool", pool)
					.tag("endpoint", key.toString())
					.register(registry);
				return adder;
			});
		}
		return count;
	}
}
