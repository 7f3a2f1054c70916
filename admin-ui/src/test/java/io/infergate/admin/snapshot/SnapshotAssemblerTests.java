package io.infergate.admin.snapshot;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import io.infergate.admin.source.BudgetSource.BudgetView;
import io.infergate.admin.source.FlowControlQueueSource.FlowControlQueue;
import io.infergate.admin.source.ModelCatalogSource.ModelView;
import io.infergate.admin.source.ModelCatalogSource.Target;
import io.infergate.admin.source.TenantUsageSource.LimitUsage;
import io.infergate.admin.source.TenantUsageSource.TenantUsage;
import io.infergate.admin.web.DashboardJson;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.scheduling.MutableClock;
import io.infergate.routing.scheduling.Scheduler;
import io.infergate.routing.scheduling.SchedulingCycle;
import io.infergate.routing.scheduling.config.SchedulingProfiles;
import io.infergate.routing.scheduling.config.SchedulingProperties;
import io.infergate.routing.scheduling.decision.DecisionRecorder;
import io.infergate.routing.scheduling.decision.DecisionRecorderProperties;
import io.infergate.routing.scheduling.load.InFlightLoad;
import io.infergate.routing.scheduling.picker.MaxScorePicker;
import io.infergate.routing.scheduling.saturation.SaturationDetector;
import io.infergate.routing.scheduling.saturation.SaturationProperties;
import io.infergate.routing.scheduling.scorer.MetricScorer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class SnapshotAssemblerTests {

	private final MutableClock clock = new MutableClock(1_700_000_000_000L);

	private final EndpointRegistry registry = EndpointHistoryTests.registry("http://10.0.0.1:8000", "http://10.0.0.1:8001");

	private final SchedulingProfiles profiles = profiles();

	private final DecisionRecorder decisions = new DecisionRecorder(new DecisionRecorderProperties(10, 100), clock,
			new SimpleMeterRegistry());

	private final EndpointHistory history = new EndpointHistory(registry, decisions, clock);

	@Test
	void carriesEachDecisionInOneSnapshotOnly() {
		SnapshotAssembler assembler = assembler(SnapshotAssembler.Sources.none());
		decide();
		decide();

		DashboardSnapshot first = assembler.next();
		DashboardSnapshot second = assembler.next();
		decide();
		DashboardSnapshot third = assembler.next();

		assertThat(first.decisions()).extracting(DashboardSnapshot.DecisionView::sequence).containsExactly(2L, 1L);
		assertThat(second.decisions()).isEmpty();
		assertThat(third.decisions()).extracting(DashboardSnapshot.DecisionView::sequence).containsExactly(3L);
		assertThat(assembler.recentDecisions()).hasSize(3);
	}

	@Test
	void leavesOutTheSectionsThatHaveNoSource() {
		String json = new DashboardJson().write(assembler(SnapshotAssembler.Sources.none()).next());

		assertThat(json).contains("\"pools\"")
			.doesNotContain("\"models\"")
			.doesNotContain("\"tenants\"")
			.doesNotContain("\"flowControl\"")
			.doesNotContain("\"budgets\"")
			.doesNotContain("\"circuit\"");
	}

	@Test
	void drawsEverySectionWhoseSourceIsPresent() {
		SnapshotAssembler assembler = assembler(new SnapshotAssembler.Sources(
				() -> List.of(new ModelView("chat", "configured", List.of(new Target("p", "llama", null, null)))),
				() -> List.of(new TenantUsage("team-a", List.of(new LimitUsage("rpm", 600, 42)))),
				() -> List.of(new FlowControlQueue("p", 3, Map.of("rejected", 1))),
				(pool, endpoint) -> endpoint.endsWith(":8001") ? "open" : "closed", null,
				() -> List.of(new BudgetView("key:team-a", "day", "soft", 5.0, 5.5, 0.25, "USD", null, true)),
				(pool) -> "p".equals(pool) ? "/models/llama/tokenizer.json" : null));

		DashboardSnapshot snapshot = assembler.next();

		assertThat(snapshot.models()).extracting(ModelView::name).containsExactly("chat");
		assertThat(snapshot.tenants()).singleElement()
			.satisfies((tenant) -> assertThat(tenant.limits()).containsExactly(new LimitUsage("rpm", 600, 42)));
		assertThat(snapshot.flowControl()).extracting(FlowControlQueue::waiting).containsExactly(3);
		assertThat(snapshot.budgets()).extracting(BudgetView::name, BudgetView::reached)
			.containsExactly(org.assertj.core.groups.Tuple.tuple("key:team-a", true));
		assertThat(snapshot.pools().get(0).endpoints()).extracting(DashboardSnapshot.EndpointView::circuit)
			.containsExactly("closed", "open");
		assertThat(snapshot.pools().get(0).tokenCounts()).isEqualTo("exact");
		assertThat(snapshot.pools().get(0).tokenizer()).isEqualTo("/models/llama/tokenizer.json");
	}

	@Test
	void aPoolWithoutATokenizerSaysItsTokensAreEstimated() {
		DashboardSnapshot.PoolView pool = assembler(SnapshotAssembler.Sources.none()).next().pools().get(0);

		assertThat(pool.tokenCounts()).isEqualTo("estimated");
		assertThat(pool.tokenizer()).isNull();
	}

	@Test
	void givesEachEndpointItsShareOfThePoolsPicks() {
		SnapshotAssembler assembler = assembler(SnapshotAssembler.Sources.none());
		Endpoint first = registry.pool("p").endpoints().get(0);
		first.acquire(10);
		decide();
		decide();
		first.release(10);
		decide();

		List<DashboardSnapshot.EndpointView> endpoints = assembler.next().pools().get(0).endpoints();

		long total = endpoints.stream().mapToLong(DashboardSnapshot.EndpointView::picksLastMinute).sum();
		assertThat(total).isEqualTo(3);
		assertThat(endpoints.stream().mapToDouble(DashboardSnapshot.EndpointView::pickShareLastMinute).sum())
			.isCloseTo(1.0, within(1e-12));
	}

	private SnapshotAssembler assembler(SnapshotAssembler.Sources sources) {
		return new SnapshotAssembler(registry, profiles, decisions,
				new SaturationDetector(SaturationProperties.defaults()), history, clock, sources);
	}

	private void decide() {
		SchedulingCycle cycle = new SchedulingCycle(new InferenceRequest("m", "p", "m", null, "", 1, 1, false, null, 0),
				clock.millis(), new SplittableRandom(1), decisions.shouldRecord());
		decisions.record(cycle, new Scheduler().schedule(profiles.defaultProfile(), cycle, registry.pool("p").endpoints()));
	}

	private static SchedulingProfiles profiles() {
		SchedulingProperties properties = new SchedulingProperties("default",
				Map.of("default", new SchedulingProperties.Profile(List.of(), Map.of("least-request", 1.0), "max-score",
						null)),
				Map.of());
		return new SchedulingProfiles(properties, List.of(),
				List.of(MetricScorer.predefined(MetricScorer.LEAST_REQUEST), new MaxScorePicker(), new InFlightLoad()));
	}
}
