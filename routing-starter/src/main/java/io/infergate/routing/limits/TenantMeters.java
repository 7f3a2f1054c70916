package io.infergate.routing.limits;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import io.infergate.routing.spend.BudgetState;

/**
 * Per tenant and key: {@code infergate.tenant.requests} (tag {@code outcome}: {@code admitted},
 * {@code rate-limited}, {@code budget-exhausted}, {@code store-unavailable}), {@code infergate.tenant.tokens} (tag {@code type}:
 * {@code input}, {@code output}) and {@code infergate.tenant.rate.limited} (tags {@code limit}: {@code rpm},
 * {@code tpm}, {@code max-parallel}, and {@code scope}: {@code key}, {@code tenant}, {@code model},
 * {@code key-model}) and {@code infergate.tenant.budget.exhausted} (tags {@code scope} and {@code period} of the hard
 * budget that refused), each tagged {@code tenant} and {@code key} (the key id, never the secret). The same counts
 * per tenant feed {@code /actuator/inference}.
 */
public final class TenantMeters {

	private final MeterRegistry registry;

	private final ConcurrentHashMap<String, Meters> byKey = new ConcurrentHashMap<>();

	private final ConcurrentHashMap<String, Totals> byTenant = new ConcurrentHashMap<>();

	public TenantMeters(MeterRegistry registry) {
		this.registry = registry;
	}

	Meters of(Caller caller) {
		Meters meters = byKey.get(caller.keyId());
		return (meters != null) ? meters : byKey.computeIfAbsent(caller.keyId(), (id) -> new Meters(caller));
	}

	/** The counts of every tenant that sent a request, by tenant name. */
	public Map<String, Totals> totals() {
		return new TreeMap<>(byTenant);
	}

	/** One tenant's counts since the gateway started. */
	public static final class Totals {

		private final LongAdder admitted = new LongAdder();

		private final LongAdder rateLimited = new LongAdder();

		private final LongAdder budgetExhausted = new LongAdder();

		private final LongAdder inputTokens = new LongAdder();

		private final LongAdder outputTokens = new LongAdder();

		public long admitted() {
			return admitted.sum();
		}

		public long rateLimited() {
			return rateLimited.sum();
		}

		/** Requests refused because a hard budget was spent. */
		public long budgetExhausted() {
			return budgetExhausted.sum();
		}

		public long inputTokens() {
			return inputTokens.sum();
		}

		public long outputTokens() {
			return outputTokens.sum();
		}
	}

	/** One key's meters. */
	final class Meters {

		private final Caller caller;

		private final Totals totals;

		private final Counter admitted;

		private final Counter storeUnavailable;

		private final Counter rateLimited;

		private final Counter inputTokens;

		private final Counter outputTokens;

		private final ConcurrentHashMap<String, Counter> byLimit = new ConcurrentHashMap<>();

		Meters(Caller caller) {
			this.caller = caller;
			this.totals = byTenant.computeIfAbsent(caller.tenant(), (tenant) -> new Totals());
			this.admitted = requests("admitted");
			this.rateLimited = requests("rate-limited");
			this.storeUnavailable = requests("store-unavailable");
			this.inputTokens = tokens("input");
			this.outputTokens = tokens("output");
		}

		private Counter requests(String outcome) {
			return Counter.builder("infergate.tenant.requests")
				.description("Inference requests by tenant, key and limits outcome")
				.tags("tenant", caller.tenant(), "key", caller.keyId(), "outcome", outcome)
				.register(registry);
		}

		private Counter tokens(String type) {
			return Counter.builder("infergate.tenant.tokens")
				.description("Tokens used by tenant and key: the model server's usage, or the gateway's count")
				.tags("tenant", caller.tenant(), "key", caller.keyId(), "type", type)
				.register(registry);
		}

		void admitted() {
			admitted.increment();
			totals.admitted.increment();
		}

		void storeUnavailable() {
			storeUnavailable.increment();
		}

		void rateLimited(LimitState denied) {
			rateLimited.increment();
			totals.rateLimited.increment();
			String tag = denied.kind().configName() + "/" + denied.bucket().scope().label();
			Counter counter = byLimit.get(tag);
			if (counter == null) {
				counter = byLimit.computeIfAbsent(tag, (t) -> Counter.builder("infergate.tenant.rate.limited")
					.description("Requests refused with 429 by tenant, key and the limit that refused them")
					.tags("tenant", caller.tenant(), "key", caller.keyId(), "limit", denied.kind().configName(),
							"scope", denied.bucket().scope().label())
					.register(registry));
			}
			counter.increment();
		}

		void budgetExhausted(BudgetState exhausted) {
			totals.budgetExhausted.increment();
			String scope = exhausted.line().scope().label();
			String period = exhausted.line().budget().period().configName();
			String tag = "budget/" + scope + "/" + period;
			Counter counter = byLimit.get(tag);
			if (counter == null) {
				counter = byLimit.computeIfAbsent(tag, (t) -> Counter.builder("infergate.tenant.budget.exhausted")
					.description("Requests refused with 429 insufficient_quota by tenant, key and the budget that "
							+ "refused them")
					.tags("tenant", caller.tenant(), "key", caller.keyId(), "scope", scope, "period", period)
					.register(registry));
			}
			counter.increment();
			requests("budget-exhausted").increment();
		}

		void used(TokenUsage usage) {
			inputTokens.increment(usage.inputTokens());
			outputTokens.increment(usage.outputTokens());
			totals.inputTokens.add(usage.inputTokens());
			totals.outputTokens.add(usage.outputTokens());
		}
	}
}
