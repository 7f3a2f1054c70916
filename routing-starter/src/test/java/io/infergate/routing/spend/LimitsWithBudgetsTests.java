package io.infergate.routing.spend;

import java.time.Duration;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.infergate.routing.limits.Caller;
import io.infergate.routing.limits.LimitDecision;
import io.infergate.routing.limits.Limits;
import io.infergate.routing.limits.MemoryRateLimitStore;
import io.infergate.routing.limits.RateLimitPolicy;
import io.infergate.routing.limits.RateLimiter;
import io.infergate.routing.limits.TenantMeters;
import io.infergate.routing.limits.TokenUsage;
import io.infergate.routing.model.ConfiguredModels;
import io.infergate.routing.model.ModelCatalog;
import io.infergate.routing.model.ModelProperties;
import io.infergate.routing.model.ServedModelRoutes;
import io.infergate.routing.model.StickyBy;
import io.infergate.routing.scheduling.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The limits step with budgets: a request holds the most its prompt estimate and {@code max_tokens} can cost at its
 * model's price, is settled at what its usage cost, and a refusal by either the limits or the budgets gives back what
 * the other took.
 */
class LimitsWithBudgetsTests {

	/** 1,000 per million output tokens: a request with max_tokens 10 and no input price may cost 0.01. */
	static final Price PRICE = new Price(0.0, null, 1_000.0);

	final MutableClock clock = new MutableClock(java.time.Instant.parse("2026-12-07T12:00:00Z").toEpochMilli());

	final MemoryBudgetStore budgets = new MemoryBudgetStore(ZoneOffset.UTC, BudgetListener.NONE);

	final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	final Caller caller = new Caller("team-a", "a", 0, 1.0);

	RateLimiter limiter(Limits keyLimits) {
		RateLimitPolicy policy = new RateLimitPolicy(
				Map.of("team-a", new RateLimitPolicy.KeyLimits("a", keyLimits, Map.of())), Map.of(), Map.of(),
				Limits.NONE);
		return new RateLimiter(policy, new MemoryRateLimitStore(Duration.ofSeconds(1)), new TenantMeters(registry),
				new Budgets(budgets, costs(), clock));
	}

	static Costs costs() {
		Map<String, ModelProperties.Model> models = new LinkedHashMap<>();
		models.put("priced", new ModelProperties.Model("p", null, null, null, List.of(), StickyBy.NONE, List.of(),
				List.of(), PRICE));
		ModelProperties properties = new ModelProperties(models);
		return new Costs(new ModelCatalog(new ConfiguredModels(properties, Set.of("p")), ServedModelRoutes.NONE),
				"USD");
	}

	static Limits budget(double amount) {
		return new Limits(null, null, null, new Budget(amount, BudgetPeriod.DAY, BudgetMode.HARD));
	}

	LimitDecision admit(RateLimiter limiter, long maxTokens) {
		return limiter.admit(caller, "priced", 0, maxTokens).toCompletableFuture().join();
	}

	@Test
	void theRequestThatWouldCrossTheBudgetIsRefusedAndSettlingAtTheRealCostMakesRoomAgain() {
		RateLimiter limiter = limiter(budget(0.05));
		List<LimitDecision> admitted = new java.util.ArrayList<>();
		for (int i = 0; i < 5; i++) {
			admitted.add(admit(limiter, 10));
		}
		LimitDecision sixth = admit(limiter, 10);

		assertThat(admitted).allMatch(LimitDecision::admitted);
		assertThat(sixth.status()).isEqualTo(LimitDecision.Status.BUDGET_EXHAUSTED);
		assertThat(sixth.budgetHold().maxCostNanos()).isEqualTo(10_000_000);
		assertThat(registry.get("infergate.tenant.budget.exhausted").tag("scope", "key").counter().count())
			.isEqualTo(1);

		admitted.get(0).complete(new TokenUsage(40, 3, true));
		admitted.get(1).complete(new TokenUsage(40, 0, true));
		assertThat(admit(limiter, 10).admitted()).as("0.003 spent, 0.03 held, 0.01 asked").isTrue();
		assertThat(admit(limiter, 8).admitted()).as("0.003 spent, 0.04 held, 0.008 asked").isFalse();
		assertThat(admit(limiter, 7).admitted()).as("0.003 spent, 0.04 held, 0.007 asked: exactly the budget")
			.isTrue();
	}

	@Test
	void aBudgetRefusalGivesTheRequestsTokensBackToItsRateLimitsAndARateRefusalItsHoldToTheBudget() {
		RateLimiter limiter = limiter(new Limits(null, 100L, 1, new Budget(0.01, BudgetPeriod.DAY, BudgetMode.HARD)));
		LimitDecision first = admit(limiter, 10);
		assertThat(first.admitted()).isTrue();
		LimitDecision parallel = admit(limiter, 1);
		assertThat(parallel.status()).as("max-parallel 1").isEqualTo(LimitDecision.Status.RATE_LIMITED);
		first.complete(new TokenUsage(0, 0, true));

		LimitDecision whole = admit(limiter, 10);
		assertThat(whole.admitted()).as("the parallel refusal held nothing of the budget").isTrue();
		whole.complete(new TokenUsage(0, 10, true));
		LimitDecision spent = admit(limiter, 1);
		assertThat(spent.status()).isEqualTo(LimitDecision.Status.BUDGET_EXHAUSTED);

		assertThat(admit(limiter, 0).status()).as("the budget refusal left its lease with no one")
			.isEqualTo(LimitDecision.Status.ADMITTED);
	}

	@Test
	void aModelWithoutAPriceCostsNothingAndIsNeverRefusedByAPositiveBudget() {
		RateLimiter limiter = limiter(budget(0.000001));
		for (int i = 0; i < 20; i++) {
			LimitDecision decision = limiter.admit(caller, "unpriced", 1_000, 1_000).toCompletableFuture().join();
			assertThat(decision.admitted()).isTrue();
			decision.complete(new TokenUsage(1_000, 1_000, true));
		}
	}
}
