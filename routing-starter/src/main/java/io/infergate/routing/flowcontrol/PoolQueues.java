package io.infergate.routing.flowcontrol;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.flowcontrol.FlowControlProperties.BandPolicy;
import io.infergate.routing.flowcontrol.FlowControlProperties.Fairness;
import io.infergate.routing.flowcontrol.FlowTicket.State;
import io.infergate.routing.pool.EnginePriority;

/**
 * One pool's waiting requests and the capacity its dispatched ones hold. Every method takes the pool's lock, changes
 * state, and completes the decisions it made after releasing it.
 * <ul>
 * <li><b>Bands</b>, one per priority. {@code strict}: the highest band with a waiting request goes first.
 * {@code weighted}: each band has a pass, advanced by 1/weight per dispatch; the waiting band with the lowest pass
 * goes first, and a band that starts waiting joins at the lowest pass of the others (stride scheduling), so every
 * band gets its share of dispatches whatever the others send.</li>
 * <li><b>Tenants</b> within a band, each a FIFO queue. {@code round-robin}: one request per waiting tenant in turn.
 * {@code tokens}: a virtual token counter per tenant, charged its prompt tokens at dispatch and its completion tokens
 * when the response ends, both divided by the tenant's weight; the waiting tenant with the lowest counter goes
 * next. A tenant that starts waiting is lifted to the lowest counter of the waiting tenants (or, when none waits, to
 * that of the tenant that last stopped waiting), so idle time earns no credit.</li>
 * <li><b>Bounded fairly:</b> when a band or the pool is full, a tenant with fewer waiting requests per weight than
 * another in the band takes that other's newest place (which is answered {@code rejected-capacity}), so the tenant
 * flooding the queue is the one shed.</li>
 * <li><b>Work-conserving:</b> a request is dispatched at once while the pool has room and nothing waits, and waiting
 * requests leave as soon as room appears: on every release, enqueue and sweep.</li>
 * </ul>
 */
final class PoolQueues {

	private static final int DRAIN_SAMPLES = 64;

	final String pool;

	private final FlowControlProperties properties;

	private final PoolCapacity capacity;

	private final Supplier<List<Endpoint>> readyEndpoints;

	private final FlowControlMeters meters;

	private final Clock clock;

	private final TreeMap<Integer, Band> bands = new TreeMap<>(Comparator.reverseOrder());

	private final PriorityQueue<FlowTicket> deadlines = new PriorityQueue<>(
			Comparator.comparingLong((FlowTicket ticket) -> ticket.deadlineMillis));

	private final long[] dispatchMillis = new long[DRAIN_SAMPLES];

	private long dispatches;

	volatile int queuedRequests;

	volatile long queuedBytes;

	volatile int inFlightRequests;

	volatile long inFlightTokens;

	/** How the pool's engines are told a request's priority. */
	final EnginePriority enginePriority;


	/** Engine levels of the requests in flight, with their counts, while the engines schedule by priority. */
	private final TreeMap<Integer, int[]> inFlightLevels = new TreeMap<>();

	PoolQueues(String pool, FlowControlProperties properties, PoolCapacity capacity,
			Supplier<List<Endpoint>> readyEndpoints, FlowControlMeters meters, Clock clock,
			EnginePriority enginePriority) {
		this.enginePriority = enginePriority;
		this.pool = pool;
		this.properties = properties;
		this.capacity = capacity;
		this.readyEndpoints = readyEndpoints;
		this.meters = meters;
		this.clock = clock;
	}

	synchronized TenantQueue tenant(int priority, String tenant, double weight) {
		return band(priority).tenants.computeIfAbsent(tenant, (name) -> new TenantQueue(name, weight));
	}

	void enqueue(FlowTicket ticket, boolean queueing, boolean shuttingDown, long nowMillis) {
		List<FlowTicket> decided = new ArrayList<>(2);
		synchronized (this) {
			List<Endpoint> ready = readyEndpoints.get();
			if (shuttingDown) {
				reject(ticket, FlowOutcome.SHUTTING_DOWN, nowMillis, decided);
			}
			else if (!queueing || ready.isEmpty()) {
				// nothing to wait for: scheduling answers a pool without endpoints, as without flow control
				dispatch(ticket, nowMillis, decided);
			}
			else {
				boolean room = capacity.hasRoom(ready, inFlightRequests, inFlightTokens, nowMillis);
				Band band = band(ticket.priority);
				if (room && queuedRequests == 0) {
					dispatch(ticket, nowMillis, decided);
				}
				else if (ticket.priority < 0 && !room) {
					reject(ticket, FlowOutcome.REJECTED_SHEDDABLE, nowMillis, decided);
				}
				else if (servedAheadByEngine(ticket)) {
					dispatch(ticket, nowMillis, decided);
				}
				else if (!makeRoom(band, ticket, nowMillis, decided)) {
					reject(ticket, FlowOutcome.REJECTED_CAPACITY, nowMillis, decided);
				}
				else {
					add(band, ticket);
					drain(ready, nowMillis, decided);
				}
			}
		}
		completeAll(decided);
	}

	/**
	 * Whether {@code ticket} fits in its band's and the pool's queues, once the band has turned away, newest first,
	 * the waiting requests of tenants that hold more of the band's queue than {@code ticket}'s tenant would: a tenant
	 * with fewer waiting requests per weight than another takes that other's newest place, so a full queue sheds the
	 * tenant flooding it rather than one that sends little.
	 */
	private boolean makeRoom(Band band, FlowTicket ticket, long nowMillis, List<FlowTicket> decided) {
		if (ticket.bytes > Math.min(properties.maxQueuedBytes().toBytes(),
				properties.maxQueuedBytesPerBand().toBytes())) {
			return false;
		}
		while (full(band, ticket.bytes)) {
			TenantQueue arriving = ticket.tenant;
			double arrivingShare = (arriving.tickets.size() + 1) / arriving.weight;
			TenantQueue fullest = null;
			for (TenantQueue tenant : band.waiting) {
				if (tenant != arriving && tenant.tickets.size() / tenant.weight > arrivingShare
						&& (fullest == null || tenant.tickets.size() / tenant.weight > fullest.tickets.size()
								/ fullest.weight)) {
					fullest = tenant;
				}
			}
			if (fullest == null) {
				return false;
			}
			FlowTicket displaced = fullest.tickets.peekLast();
			remove(displaced);
			reject(displaced, FlowOutcome.REJECTED_CAPACITY, nowMillis, decided);
		}
		return true;
	}

	private boolean full(Band band, long bytes) {
		return queuedRequests >= properties.maxQueuedRequests()
				|| queuedBytes + bytes > properties.maxQueuedBytes().toBytes()
				|| band.queuedRequests >= properties.maxQueuedRequestsPerBand()
				|| band.queuedBytes + bytes > properties.maxQueuedBytesPerBand().toBytes();
	}

	/** Expires waiting requests past their deadline, and dispatches what the pool has room for. */
	void sweep(long nowMillis) {
		List<FlowTicket> decided = new ArrayList<>(0);
		synchronized (this) {
			if (queuedRequests == 0 && deadlines.isEmpty()) {
				return;
			}
			List<Endpoint> ready = readyEndpoints.get();
			while (!deadlines.isEmpty() && deadlines.peek().deadlineMillis <= nowMillis) {
				FlowTicket ticket = deadlines.poll();
				if (ticket.state == State.QUEUED) {
					remove(ticket);
					reject(ticket, ready.isEmpty() ? FlowOutcome.NO_ENDPOINTS : FlowOutcome.TTL_EXPIRED, nowMillis,
							decided);
				}
			}
			drain(ready, nowMillis, decided);
		}
		completeAll(decided);
	}

	/** Answers every waiting request {@code shutting-down}. */
	void rejectAll(FlowOutcome outcome, long nowMillis) {
		List<FlowTicket> decided = new ArrayList<>();
		synchronized (this) {
			for (Band band : bands.values()) {
				for (TenantQueue tenant : band.tenants.values()) {
					while (!tenant.tickets.isEmpty()) {
						FlowTicket ticket = tenant.tickets.peekFirst();
						remove(ticket);
						reject(ticket, outcome, nowMillis, decided);
					}
				}
			}
			deadlines.clear();
		}
		completeAll(decided);
	}

	void cancel(FlowTicket ticket) {
		List<FlowTicket> decided = new ArrayList<>(1);
		synchronized (this) {
			if (ticket.state == State.QUEUED) {
				remove(ticket);
				end(ticket, FlowOutcome.CANCELLED, 0, clockMillis(), decided);
			}
			else if (ticket.state == State.DISPATCHED) {
				releaseLocked(ticket, -1, decided);
			}
		}
		completeAll(decided);
	}

	void release(FlowTicket ticket, long usedTokens) {
		List<FlowTicket> decided = new ArrayList<>(0);
		synchronized (this) {
			if (ticket.state != State.DISPATCHED) {
				return;
			}
			releaseLocked(ticket, usedTokens, decided);
		}
		completeAll(decided);
	}

	private void releaseLocked(FlowTicket ticket, long usedTokens, List<FlowTicket> decided) {
		ticket.state = State.ENDED;
		if (priorityEngine()) {
			int level = ticket.engineLevel();
			int[] count = inFlightLevels.get(level);
			if (--count[0] == 0) {
				inFlightLevels.remove(level);
			}
		}
		ticket.tenant.inFlight--;
		inFlightRequests--;
		inFlightTokens -= ticket.estimatedTokens;
		if (properties.fairness() == Fairness.TOKENS) {
			long generated = (usedTokens >= 0) ? Math.max(0, usedTokens - ticket.promptTokens)
					: ticket.estimatedTokens - ticket.promptTokens;
			ticket.tenant.virtualTokens += generated / ticket.tenant.weight;
		}
		if (queuedRequests > 0) {
			drain(readyEndpoints.get(), clockMillis(), decided);
		}
	}

	private long clockMillis() {
		return clock.millis();
	}

	private void drain(List<Endpoint> ready, long nowMillis, List<FlowTicket> decided) {
		if (ready.isEmpty()) {
			return;
		}
		while (queuedRequests > 0 && capacity.hasRoom(ready, inFlightRequests, inFlightTokens, nowMillis)) {
			Band band = nextBand();
			TenantQueue tenant = band.next(properties.fairness());
			FlowTicket ticket = tenant.tickets.peekFirst();
			remove(ticket);
			if (properties.bandPolicy() == BandPolicy.WEIGHTED) {
				band.pass += 1.0 / properties.bandWeight(band.priority);
			}
			dispatch(ticket, nowMillis, decided);
		}
	}

	private Band nextBand() {
		Band next = null;
		for (Band band : bands.values()) {
			if (band.queuedRequests == 0) {
				continue;
			}
			if (properties.bandPolicy() == BandPolicy.STRICT) {
				return band;
			}
			if (next == null || band.pass < next.pass) {
				next = band;
			}
		}
		return next;
	}

	private void add(Band band, FlowTicket ticket) {
		if (band.queuedRequests == 0 && properties.bandPolicy() == BandPolicy.WEIGHTED) {
			double lowest = Double.MAX_VALUE;
			for (Band other : bands.values()) {
				if (other.queuedRequests > 0) {
					lowest = Math.min(lowest, other.pass);
				}
			}
			if (lowest != Double.MAX_VALUE) {
				band.pass = Math.max(band.pass, lowest);
			}
		}
		TenantQueue tenant = ticket.tenant;
		if (tenant.tickets.isEmpty()) {
			band.activate(tenant, properties.fairness());
		}
		tenant.tickets.addLast(ticket);
		ticket.state = State.QUEUED;
		band.queuedRequests++;
		band.queuedBytes += ticket.bytes;
		queuedRequests++;
		queuedBytes += ticket.bytes;
		deadlines.add(ticket);
	}

	/** Takes a waiting ticket out of its tenant's queue and the counts; it stays in the deadlines until due. */
	private void remove(FlowTicket ticket) {
		Band band = bands.get(ticket.priority);
		TenantQueue tenant = ticket.tenant;
		if (tenant.tickets.peekFirst() == ticket) {
			tenant.tickets.pollFirst();
		}
		else {
			tenant.tickets.remove(ticket);
		}
		if (tenant.tickets.isEmpty()) {
			band.deactivate(tenant);
		}
		band.queuedRequests--;
		band.queuedBytes -= ticket.bytes;
		queuedRequests--;
		queuedBytes -= ticket.bytes;
	}

	private void dispatch(FlowTicket ticket, long nowMillis, List<FlowTicket> decided) {
		if (priorityEngine()) {
			// only an engine told the priority reads the rank; it costs a pass over the band's tenants
			ticket.shareRank = shareRank(ticket.tenant, bands.get(ticket.priority));
			inFlightLevels.computeIfAbsent(ticket.engineLevel(), (level) -> new int[1])[0]++;
		}
		ticket.tenant.inFlight++;
		inFlightRequests++;
		inFlightTokens += ticket.estimatedTokens;
		if (properties.fairness() == Fairness.TOKENS) {
			ticket.tenant.virtualTokens += ticket.promptTokens / ticket.tenant.weight;
		}
		dispatchMillis[(int) (dispatches++ % DRAIN_SAMPLES)] = nowMillis;
		long waited = nowMillis - ticket.arrivalMillis;
		meters.waited(band(ticket.priority), waited);
		ticket.state = State.DISPATCHED;
		ticket.pending = new FlowDecision(FlowOutcome.DISPATCHED, waited, 0);
		meters.ended(band(ticket.priority), FlowOutcome.DISPATCHED);
		decided.add(ticket);
	}

	/** Whether the pool's engines schedule by the priority the gateway forwards. */
	private boolean priorityEngine() {
		return enginePriority != EnginePriority.NONE;
	}

	/**
	 * Whether the pool's engines will serve {@code ticket} ahead of work already in flight, so it need not wait at the
	 * gateway while the pool is saturated: they schedule by priority, it is not sheddable, its tenant has no request
	 * waiting here (a tenant already waiting is using at least its share, and its requests keep their order), and its
	 * engine level (its priority, refined by its tenant's share rank) is above the lowest level in flight. Work at the
	 * lowest level in flight, sheddable work and work of tenants over their share still waits (or is shed), so the
	 * engines' queues hold no more than the detector lets through plus what they serve first.
	 */
	private boolean servedAheadByEngine(FlowTicket ticket) {
		if (!priorityEngine() || ticket.priority < 0 || !ticket.tenant.tickets.isEmpty() || inFlightLevels.isEmpty()) {
			return false;
		}
		int rank = shareRank(ticket.tenant, bands.get(ticket.priority));
		return EnginePriority.level(ticket.callerPriority, rank) > inFlightLevels.firstKey();
	}

	/**
	 * Where {@code tenant}'s virtual token counter stands between the lowest and the highest of its band's active
	 * tenants (those with a request waiting or in flight, and {@code tenant}), in {@link EnginePriority#SHARE_LEVELS}
	 * steps: 0 for the tenant that has used least of the pool per weight, and when it is alone or fairness is
	 * round-robin, which keeps no counters.
	 */
	private int shareRank(TenantQueue tenant, Band band) {
		if (band == null || band.tenants.size() < 2 || properties.fairness() != Fairness.TOKENS) {
			return 0;
		}
		double lowest = tenant.virtualTokens;
		double highest = tenant.virtualTokens;
		for (TenantQueue other : band.tenants.values()) {
			if (other.inFlight == 0 && other.tickets.isEmpty()) {
				continue;
			}
			lowest = Math.min(lowest, other.virtualTokens);
			highest = Math.max(highest, other.virtualTokens);
		}
		if (highest <= lowest) {
			return 0;
		}
		double position = (tenant.virtualTokens - lowest) / (highest - lowest);
		return (int) Math.min(EnginePriority.SHARE_LEVELS - 1, Math.floor(position * EnginePriority.SHARE_LEVELS));
	}

	private void reject(FlowTicket ticket, FlowOutcome outcome, long nowMillis, List<FlowTicket> decided) {
		end(ticket, outcome, retryAfterMillis(nowMillis), nowMillis, decided);
	}

	private void end(FlowTicket ticket, FlowOutcome outcome, long retryAfterMillis, long nowMillis,
			List<FlowTicket> decided) {
		ticket.state = State.ENDED;
		ticket.pending = new FlowDecision(outcome, nowMillis - ticket.arrivalMillis, retryAfterMillis);
		meters.ended(band(ticket.priority), outcome);
		decided.add(ticket);
	}

	/**
	 * When a request turned away now could expect room: the requests waiting ahead of it over the rate at which the
	 * pool dispatched its last {@value #DRAIN_SAMPLES} requests; 1 s while that rate is unknown. At least 1 ms, at
	 * most the longest wait a request may ask for.
	 */
	private long retryAfterMillis(long nowMillis) {
		int samples = (int) Math.min(dispatches, DRAIN_SAMPLES);
		long estimate = 1000;
		if (samples >= 2) {
			long newest = dispatchMillis[(int) ((dispatches - 1) % DRAIN_SAMPLES)];
			long oldest = dispatchMillis[(int) ((dispatches - samples) % DRAIN_SAMPLES)];
			// the rate since the oldest sample, so a pool that stopped draining is not taken for a fast one
			long spanMillis = Math.max(1, Math.max(newest, nowMillis) - oldest);
			double perMilli = (samples - 1) / (double) spanMillis;
			estimate = (long) Math.ceil((queuedRequests + 1) / perMilli);
		}
		return Math.max(1, Math.min(estimate, properties.maxTtl().toMillis()));
	}

	private Band band(int priority) {
		Band band = bands.get(priority);
		if (band == null) {
			band = new Band(priority);
			bands.put(priority, band);
			meters.register(this, band);
		}
		return band;
	}

	private static void completeAll(List<FlowTicket> decided) {
		for (int i = 0, n = decided.size(); i < n; i++) {
			decided.get(i).complete();
		}
	}

	synchronized PoolFlowReport report() {
		List<PoolFlowReport.Band> bandReports = new ArrayList<>(bands.size());
		for (Band band : bands.values()) {
			List<PoolFlowReport.Tenant> tenants = new ArrayList<>(band.tenants.size());
			band.tenants.values()
				.forEach((tenant) -> tenants
					.add(new PoolFlowReport.Tenant(tenant.name, tenant.tickets.size(), tenant.virtualTokens)));
			bandReports.add(new PoolFlowReport.Band(band.priority, band.queuedRequests, band.queuedBytes, tenants));
		}
		return new PoolFlowReport(pool, inFlightRequests, inFlightTokens, queuedRequests, queuedBytes, bandReports);
	}

	/** One priority's waiting requests, by tenant. */
	static final class Band {

		final int priority;

		final Map<String, TenantQueue> tenants = new HashMap<>();

		/** Tenants with a waiting request, in round-robin order. */
		final ArrayDeque<TenantQueue> waiting = new ArrayDeque<>();

		final Map<FlowOutcome, Counter> outcomeMeters = new EnumMap<>(FlowOutcome.class);

		Timer waitMeter;

		volatile int queuedRequests;

		volatile long queuedBytes;

		double pass;

		/** The counter of the tenant that last stopped waiting. */
		private double lastLeftVirtualTokens;

		Band(int priority) {
			this.priority = priority;
		}

		void activate(TenantQueue tenant, Fairness fairness) {
			if (fairness == Fairness.TOKENS) {
				double floor = lastLeftVirtualTokens;
				if (!waiting.isEmpty()) {
					floor = Double.MAX_VALUE;
					for (TenantQueue other : waiting) {
						floor = Math.min(floor, other.virtualTokens);
					}
				}
				tenant.virtualTokens = Math.max(tenant.virtualTokens, floor);
			}
			waiting.addLast(tenant);
		}

		void deactivate(TenantQueue tenant) {
			waiting.remove(tenant);
			lastLeftVirtualTokens = tenant.virtualTokens;
		}

		/** The tenant whose oldest request goes next; it stays waiting (at the back, for round-robin). */
		TenantQueue next(Fairness fairness) {
			if (fairness == Fairness.ROUND_ROBIN) {
				TenantQueue tenant = waiting.pollFirst();
				waiting.addLast(tenant);
				return tenant;
			}
			TenantQueue lowest = null;
			for (Iterator<TenantQueue> it = waiting.iterator(); it.hasNext();) {
				TenantQueue tenant = it.next();
				if (lowest == null || tenant.virtualTokens < lowest.virtualTokens) {
					lowest = tenant;
				}
			}
			return lowest;
		}
	}

	/** One tenant's waiting requests in one band, oldest first, and its virtual token counter. */
	static final class TenantQueue {

		final String name;

		final double weight;

		final ArrayDeque<FlowTicket> tickets = new ArrayDeque<>();

		double virtualTokens;

		/** Its requests dispatched and not yet ended. */
		int inFlight;

		TenantQueue(String name, double weight) {
			this.name = name;
			this.weight = (weight > 0) ? weight : 1.0;
		}
	}
}
