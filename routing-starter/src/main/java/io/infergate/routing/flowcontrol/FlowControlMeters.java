package io.infergate.routing.flowcontrol;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Flow control's meters, tagged {@code pool} and {@code priority} (the band):
 * <ul>
 * <li>{@value #QUEUE_REQUESTS} and {@value #QUEUE_BYTES}: gauges of the requests and request bytes waiting;</li>
 * <li>{@value #WAIT}: a histogram of how long dispatched requests waited (0 for those dispatched at once);</li>
 * <li>{@value #REQUESTS}: a counter of requests by {@code outcome} ({@code dispatched}, {@code cancelled}, or the
 * dropped reason);</li>
 * <li>{@value #IN_FLIGHT}: a gauge of the requests each pool holds in flight, tagged {@code pool} only.</li>
 * </ul>
 * Each band caches its meters, so the request path looks nothing up.
 */
final class FlowControlMeters {

	static final String QUEUE_REQUESTS = "infergate.flow_control.queue.requests";

	static final String QUEUE_BYTES = "infergate.flow_control.queue.bytes";

	static final String WAIT = "infergate.flow_control.queue.wait";

	static final String REQUESTS = "infergate.flow_control.requests";

	static final String IN_FLIGHT = "infergate.flow_control.in_flight";

	private final MeterRegistry registry;

	FlowControlMeters(MeterRegistry registry) {
		this.registry = registry;
	}

	void register(PoolQueues queues) {
		Gauge.builder(IN_FLIGHT, queues, (q) -> q.inFlightRequests)
			.tag("pool", queues.pool)
			.description("Requests flow control dispatched to the pool that have not ended")
			.register(registry);
	}

	void register(PoolQueues queues, PoolQueues.Band band) {
		String priority = Integer.toString(band.priority);
		Gauge.builder(QUEUE_REQUESTS, band, (b) -> b.queuedRequests)
			.tags("pool", queues.pool, "priority", priority)
			.description("Requests waiting for capacity")
			.register(registry);
		Gauge.builder(QUEUE_BYTES, band, (b) -> b.queuedBytes)
			.tags("pool", queues.pool, "priority", priority)
			.baseUnit("bytes")
			.description("Bytes of the requests waiting for capacity")
			.register(registry);
		band.waitMeter = Timer.builder(WAIT)
			.tags("pool", queues.pool, "priority", priority)
			.description("Time dispatched requests waited at the gateway")
			.publishPercentileHistogram()
			.maximumExpectedValue(Duration.ofMinutes(5))
			.register(registry);
		for (FlowOutcome outcome : FlowOutcome.values()) {
			band.outcomeMeters.put(outcome,
					Counter.builder(REQUESTS)
						.tags("pool", queues.pool, "priority", priority, "outcome", outcome.reason())
						.description("Requests through flow control, by how they left it")
						.register(registry));
		}
	}

	void waited(PoolQueues.Band band, long waitedMillis) {
		band.waitMeter.record(waitedMillis, TimeUnit.MILLISECONDS);
	}

	void ended(PoolQueues.Band band, FlowOutcome outcome) {
		band.outcomeMeters.get(outcome).increment();
	}
}
