package io.infergate.gateway.observe;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import io.infergate.routing.limits.Caller;
import io.infergate.routing.spend.Costs;

/**
 * {@value #COST}: what requests cost at their model's price ({@code infergate.models.<m>.price}), a counter in
 * {@code infergate.usage.currency}, tagged {@code model} (as the client asked for it), {@code tenant}, {@code key}
 * (the key id, never the secret; both {@code anonymous} for a request no key authenticated, as in
 * {@code infergate.tenant.*}) and {@code currency}.
 * Prometheus shows it as {@code gen_ai_client_cost_total}. A request that cost nothing (no price, no usage) adds
 * nothing, so a model without a price has no series.
 */
public final class SpendMeters {

	public static final String COST = "gen_ai.client.cost";

	private final MeterRegistry registry;

	private final Costs costs;

	private final ConcurrentMap<Key, Counter> counters = new ConcurrentHashMap<>();

	public SpendMeters(MeterRegistry registry, Costs costs) {
		this.registry = registry;
		this.costs = costs;
	}

	/** What prices each request. */
	public Costs costs() {
		return costs;
	}

	public void record(CompletedRequest request) {
		if (!(request.cost() > 0) || request.model() == null) {
			return;
		}
		Key key = new Key(request.model(), orAnonymous(request.tenant()), orAnonymous(request.apiKeyId()));
		Counter counter = counters.get(key);
		if (counter == null) {
			counter = counters.computeIfAbsent(key, (k) -> Counter.builder(COST)
				.description("What requests cost at their model's price, from the usage their limits settle with")
				.tags("model", k.model(), "tenant", k.tenant(), "key", k.key(), "currency", costs.currency())
				.register(registry));
		}
		counter.increment(request.cost());
	}

	private static String orAnonymous(String value) {
		return (value != null) ? value : Caller.ANONYMOUS;
	}

	private record Key(String model, String tenant, String key) {
	}
}
