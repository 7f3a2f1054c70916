package io.infergate.admin.snapshot;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.endpoint.EndpointMetrics;
import io.infergate.routing.endpoint.EndpointSnapshot;
import io.infergate.routing.pool.EndpointPool;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.scheduling.decision.DecisionRecorder;

/**
 * The last {@value #SECONDS} seconds of every endpoint's queue, KV-cache use and picks per second, one sample a
 * second, for the dashboard's charts and its picks of the last minute.
 * <p>
 * {@link #sample()} is meant to run once a second whether or not a dashboard is open, so a dashboard opened now
 * shows the last five minutes. It reads the endpoints' latest snapshots and pick counts and writes into fixed
 * arrays: it allocates only when an endpoint appears. Series of endpoints that left their pool are dropped.
 * Thread-safe.
 */
public final class EndpointHistory {

	/** How many seconds are kept. */
	public static final int SECONDS = 300;

	private static final int LAST_MINUTE = 60;

	private final EndpointRegistry registry;

	private final DecisionRecorder decisions;

	private final Clock clock;

	private final ConcurrentMap<String, ConcurrentMap<EndpointId, Series>> series = new ConcurrentHashMap<>();

	public EndpointHistory(EndpointRegistry registry, DecisionRecorder decisions, Clock clock) {
		this.registry = registry;
		this.decisions = decisions;
		this.clock = clock;
	}

	/** Takes this second's sample of every endpoint. */
	public void sample() {
		long second = clock.millis() / 1000;
		for (EndpointPool pool : registry.pools()) {
			ConcurrentMap<EndpointId, Series> ofPool = series.computeIfAbsent(pool.name(),
					(name) -> new ConcurrentHashMap<>());
			List<Endpoint> endpoints = pool.endpoints();
			for (Endpoint endpoint : endpoints) {
				Series of = ofPool.get(endpoint.id());
				if (of == null) {
					of = ofPool.computeIfAbsent(endpoint.id(), (id) -> new Series());
				}
				EndpointSnapshot snapshot = endpoint.snapshot();
				EndpointMetrics metrics = (snapshot != null) ? snapshot.metrics() : null;
				of.add(second, (metrics != null) ? metrics.waitingRequests() : -1,
						(metrics != null) ? metrics.kvCacheUsage() : Double.NaN,
						decisions.picks(pool.name(), endpoint.id()));
			}
			if (ofPool.size() > endpoints.size()) {
				ofPool.keySet().removeIf((id) -> pool.endpoint(id) == null);
			}
		}
	}

	/** The newest sample of the endpoint, or {@code null} when it has none. */
	public Sample newest(String pool, EndpointId endpoint) {
		Series of = seriesOf(pool, endpoint);
		return (of != null) ? of.newest() : null;
	}

	/**
	 * Picks of the endpoint in the last minute: its pick count now less its count in the newest sample at least a
	 * minute old (all its picks when there is none yet).
	 */
	public long picksLastMinute(String pool, EndpointId endpoint) {
		long now = decisions.picks(pool, endpoint);
		Series of = seriesOf(pool, endpoint);
		return (of != null) ? now - of.pickTotalAt(clock.millis() / 1000 - LAST_MINUTE) : now;
	}

	/** Every endpoint's series, oldest sample first, by pool and endpoint id. */
	public Map<String, Map<String, SeriesView>> view() {
		Map<String, Map<String, SeriesView>> view = new LinkedHashMap<>();
		for (EndpointPool pool : registry.pools()) {
			Map<String, SeriesView> ofPool = new LinkedHashMap<>();
			for (Endpoint endpoint : pool.endpoints()) {
				Series of = seriesOf(pool.name(), endpoint.id());
				if (of != null) {
					ofPool.put(endpoint.id().toString(), of.view());
				}
			}
			view.put(pool.name(), ofPool);
		}
		return view;
	}

	private Series seriesOf(String pool, EndpointId endpoint) {
		ConcurrentMap<EndpointId, Series> ofPool = series.get(pool);
		return (ofPool != null) ? ofPool.get(endpoint) : null;
	}

	/**
	 * One second of one endpoint.
	 *
	 * @param second epoch second
	 * @param waitingRequests requests queued in the engine, or {@code null} without metrics
	 * @param kvCacheUsage KV-cache use 0..1, or {@code null} without metrics
	 * @param picksPerSecond picks since the previous sample, per second
	 */
	public record Sample(long second, Integer waitingRequests, Double kvCacheUsage, double picksPerSecond) {
	}

	/** One endpoint's samples, oldest first, as parallel arrays. */
	public record SeriesView(List<Long> seconds, List<Integer> waitingRequests, List<Double> kvCacheUsage,
			List<Double> picksPerSecond) {
	}

	/** A ring of samples indexed by second; a slot holds the second it was written in, so gaps show. */
	private static final class Series {

		private final long[] seconds = new long[SECONDS];

		private final int[] waiting = new int[SECONDS];

		private final double[] kvCacheUsage = new double[SECONDS];

		private final long[] pickTotals = new long[SECONDS];

		private final double[] picksPerSecond = new double[SECONDS];

		private long newestSecond = -1;

		synchronized void add(long second, int waitingRequests, double kv, long pickTotal) {
			if (second <= newestSecond) {
				return;
			}
			int slot = slot(second);
			double rate = (newestSecond < 0) ? 0
					: Math.max(0, pickTotal - pickTotals[slot(newestSecond)]) / (double) (second - newestSecond);
			seconds[slot] = second;
			waiting[slot] = waitingRequests;
			kvCacheUsage[slot] = kv;
			pickTotals[slot] = pickTotal;
			picksPerSecond[slot] = rate;
			newestSecond = second;
		}

		synchronized Sample newest() {
			return (newestSecond < 0) ? null : sample(slot(newestSecond));
		}

		/**
		 * The pick total of the newest sample taken at or before {@code second}, or 0 when the series holds none
		 * (it is younger than that).
		 */
		synchronized long pickTotalAt(long second) {
			for (long s = Math.min(second, newestSecond); s > newestSecond - SECONDS && s >= 0; s--) {
				if (seconds[slot(s)] == s) {
					return pickTotals[slot(s)];
				}
			}
			return 0;
		}

		synchronized SeriesView view() {
			List<Long> at = new ArrayList<>();
			List<Integer> queue = new ArrayList<>();
			List<Double> kv = new ArrayList<>();
			List<Double> picks = new ArrayList<>();
			for (long s = newestSecond - SECONDS + 1; s <= newestSecond && newestSecond >= 0; s++) {
				if (s >= 0 && seconds[slot(s)] == s) {
					Sample sample = sample(slot(s));
					at.add(s);
					queue.add(sample.waitingRequests());
					kv.add(sample.kvCacheUsage());
					picks.add(sample.picksPerSecond());
				}
			}
			return new SeriesView(at, queue, kv, picks);
		}

		private Sample sample(int slot) {
			boolean measured = waiting[slot] >= 0;
			return new Sample(seconds[slot], measured ? waiting[slot] : null, measured ? kvCacheUsage[slot] : null,
					picksPerSecond[slot]);
		}

		private static int slot(long second) {
			return (int) Math.floorMod(second, (long) SECONDS);
		}
	}
}
