package io.infergate.routing.flowcontrol;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.MeterRegistry;

import io.infergate.routing.limits.Caller;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.pool.EndpointPool;
import io.infergate.routing.pool.EnginePriority;
import io.infergate.routing.pool.EndpointRegistry;

/**
 * Flow control: holds requests at the gateway while their pool is saturated, and lets them go by priority band and
 * fair share of tenants as capacity frees ({@link PoolQueues} has the rules). It runs after the
 * rate limits.
 * <p>
 * It has no gateway types and no thread of its own: the gateway calls {@link #sweep()} on a timer, the bench harness
 * from its event loop, and both read time from the {@link Clock} given.
 */
public final class FlowController {

	/** The band of every request with a priority below 0. */
	public static final int SHEDDABLE_BAND = -1;

	private final EndpointRegistry registry;

	private final PoolCapacity capacity;

	private final FlowControlProperties properties;

	private final Clock clock;

	private final FlowControlMeters meters;

	private final ConcurrentHashMap<String, PoolQueues> pools = new ConcurrentHashMap<>();

	private volatile boolean shuttingDown;

	public FlowController(EndpointRegistry registry, PoolCapacity capacity, FlowControlProperties properties,
			Clock clock, MeterRegistry meterRegistry) {
		this.registry = registry;
		this.capacity = capacity;
		this.properties = properties;
		this.clock = clock;
		this.meters = new FlowControlMeters(meterRegistry);
	}

	public FlowControlProperties properties() {
		return properties;
	}

	/**
	 * Enters one request, which is dispatched at once while its pool has room and nothing waits, waits otherwise,
	 * and is rejected when it is sheddable, the queue is full, or the gateway is shutting down.
	 *
	 * @param pool the pool chosen for the request
	 * @param caller its tenant, tenant weight and priority
	 * @param estimatedTokens its estimated prompt tokens plus {@code max_tokens}
	 * @param promptTokens its estimated prompt tokens
	 * @param bytes the size of its body
	 * @param ttl how long it may wait; {@code null} for {@code default-ttl}, at most {@code max-ttl}
	 */
	public FlowTicket enqueue(String pool, Caller caller, long estimatedTokens, int promptTokens, long bytes,
			Duration ttl) {
		PoolQueues queues = pools.computeIfAbsent(pool, this::newQueues);
		long now = clock.millis();
		// every sheddable priority shares one band, so clients lowering theirs cannot create bands (and meters) at will
		int priority = Math.max(caller.priority(), SHEDDABLE_BAND);
		FlowTicket ticket = new FlowTicket(queues, queues.tenant(priority, caller.tenant(), caller.tenantWeight()),
				priority, caller.priority(), bytes, estimatedTokens, promptTokens, now, now + ttl(ttl).toMillis());
		queues.enqueue(ticket, properties.enabled(), shuttingDown, now);
		return ticket;
	}

	/**
	 * The {@code priority} to write into the body forwarded for a dispatched request, in its pool's engine's
	 * convention ({@code infergate.pools.<name>.engine-priority}), or {@code null} when the pool's engine is told
	 * none.
	 */
	public Integer enginePriority(FlowTicket ticket) {
		return ticket.queues.enginePriority.forwarded(ticket.engineLevel());
	}

	/** {@code requested} within {@code max-ttl}, or {@code default-ttl} when {@code null}. */
	public Duration ttl(Duration requested) {
		if (requested == null) {
			return properties.defaultTtl();
		}
		return (requested.compareTo(properties.maxTtl()) > 0) ? properties.maxTtl() : requested;
	}

	/** Expires waiting requests past their time to live, and dispatches what each pool has room for. */
	public void sweep() {
		long now = clock.millis();
		for (PoolQueues queues : pools.values()) {
			queues.sweep(now);
		}
	}

	/** Stops admitting: every request from now on, and every one waiting, is answered {@code shutting-down}. */
	public void shutDown() {
		shuttingDown = true;
		long now = clock.millis();
		for (PoolQueues queues : pools.values()) {
			queues.rejectAll(FlowOutcome.SHUTTING_DOWN, now);
		}
	}

	public boolean isShuttingDown() {
		return shuttingDown;
	}

	/** Every pool that has seen a request: in flight, waiting, by band and tenant. */
	public List<PoolFlowReport> report() {
		List<PoolFlowReport> reports = new ArrayList<>(pools.size());
		pools.values().forEach((queues) -> reports.add(queues.report()));
		reports.sort(java.util.Comparator.comparing(PoolFlowReport::pool));
		return reports;
	}

	/** One pool's report, or {@code null} when it has seen no request. */
	public PoolFlowReport report(String pool) {
		PoolQueues queues = pools.get(pool);
		return (queues != null) ? queues.report() : null;
	}

	private PoolQueues newQueues(String pool) {
		EndpointPool endpoints = registry.pool(pool);
		EnginePriority enginePriority = (endpoints != null) ? endpoints.settings().enginePriority()
				: EnginePriority.NONE;
		PoolQueues queues = new PoolQueues(pool, properties, capacity, () -> readyEndpoints(pool), meters, clock,
				enginePriority);
		meters.register(queues);
		return queues;
	}

	private List<Endpoint> readyEndpoints(String pool) {
		EndpointPool endpoints = registry.pool(pool);
		return (endpoints != null) ? endpoints.readyEndpoints(List.of()) : List.of();
	}
}
