package io.infergate.admin.snapshot;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import io.infergate.admin.snapshot.DashboardSnapshot.CandidateView;
import io.infergate.admin.snapshot.DashboardSnapshot.DecisionView;
import io.infergate.admin.snapshot.DashboardSnapshot.EndpointView;
import io.infergate.admin.snapshot.DashboardSnapshot.FilteredView;
import io.infergate.admin.snapshot.DashboardSnapshot.MetricsView;
import io.infergate.admin.snapshot.DashboardSnapshot.PoolView;
import io.infergate.admin.source.FlowControlQueueSource;
import io.infergate.admin.source.BudgetSource;
import io.infergate.routing.actuate.InferenceReport;
import io.infergate.admin.source.CircuitStateSource;
import io.infergate.admin.source.ConfigurationSource;
import io.infergate.admin.source.ModelCatalogSource;
import io.infergate.admin.source.TenantUsageSource;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointMetrics;
import io.infergate.routing.endpoint.EndpointSnapshot;
import io.infergate.routing.pool.EndpointPool;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.scheduling.config.SchedulingProfiles;
import io.infergate.routing.scheduling.decision.DecisionRecord;
import io.infergate.routing.scheduling.decision.DecisionRecorder;
import io.infergate.routing.scheduling.saturation.SaturationDetector;

/**
 * Builds the dashboard's snapshots from the live state: pools and endpoints, the decisions recorded since the
 * previous snapshot, the history's newest samples, and the sections whose sources are present.
 * <p>
 * {@link #next()} remembers the newest decision it returned, so consecutive snapshots carry each decision once;
 * it is called by one ticking thread at a time. {@link #recentDecisions()} returns every kept decision.
 */
public final class SnapshotAssembler {

	private final EndpointRegistry registry;

	private final SchedulingProfiles profiles;

	private final DecisionRecorder decisions;

	private final SaturationDetector saturation;

	private final EndpointHistory history;

	private final Clock clock;

	private final Sources sources;

	private long newestDecision;

	public SnapshotAssembler(EndpointRegistry registry, SchedulingProfiles profiles, DecisionRecorder decisions,
			SaturationDetector saturation, EndpointHistory history, Clock clock, Sources sources) {
		this.registry = registry;
		this.profiles = profiles;
		this.decisions = decisions;
		this.saturation = saturation;
		this.history = history;
		this.clock = clock;
		this.sources = sources;
	}

	/** The snapshot of now, with the decisions recorded since the previous call. */
	public synchronized DashboardSnapshot next() {
		long now = clock.millis();
		List<DecisionRecord> fresh = decisions.recentSince(newestDecision);
		if (!fresh.isEmpty()) {
			newestDecision = fresh.get(0).sequence();
		}
		return new DashboardSnapshot(now, pools(now), views(fresh),
				(sources.models() != null) ? sources.models().models() : null,
				(sources.tenants() != null) ? sources.tenants().tenants() : null,
				(sources.flowControl() != null) ? sources.flowControl().queues() : null,
				(sources.configuration() != null) ? sources.configuration().version() : null,
				(sources.budgets() != null) ? sources.budgets().budgets() : null);
	}

	/** Every kept decision, newest first. */
	public List<DecisionView> recentDecisions() {
		return views(decisions.recent());
	}

	private List<PoolView> pools(long now) {
		List<PoolView> pools = new ArrayList<>();
		for (EndpointPool pool : registry.pools()) {
			List<Endpoint> endpoints = pool.endpoints();
			long[] picks = new long[endpoints.size()];
			long poolPicks = 0;
			for (int i = 0; i < picks.length; i++) {
				picks[i] = history.picksLastMinute(pool.name(), endpoints.get(i).id());
				poolPicks += picks[i];
			}
			List<EndpointView> views = new ArrayList<>(endpoints.size());
			for (int i = 0; i < picks.length; i++) {
				Endpoint endpoint = endpoints.get(i);
				String id = endpoint.id().toString();
				views.add(new EndpointView(id, endpoint.isReady(), saturation.isStale(endpoint, now),
						(sources.circuits() != null) ? sources.circuits().state(pool.name(), id) : null,
						metrics(endpoint.snapshot(), now), endpoint.inFlightRequests(), endpoint.inFlightTokens(),
						picks[i], (poolPicks > 0) ? picks[i] / (double) poolPicks : 0,
						history.newest(pool.name(), endpoint.id())));
			}
			String tokenizer = (sources.tokenizers() != null) ? sources.tokenizers().tokenizer(pool.name()) : null;
			pools.add(new PoolView(pool.name(), pool.engine().configName(),
					profiles.resolve(pool.profileName()).name(), pool.failureMode().configName(), views,
					pool.isRetiring(), (tokenizer != null) ? "exact" : "estimated", tokenizer));
		}
		return pools;
	}

	private static MetricsView metrics(EndpointSnapshot snapshot, long now) {
		if (snapshot == null) {
			return null;
		}
		EndpointMetrics metrics = snapshot.metrics();
		return new MetricsView(metrics.waitingRequests(), metrics.runningRequests(), metrics.kvCacheUsage(),
				metrics.maxLoras(), metrics.runningAdapters().stream().sorted().toList(),
				metrics.waitingAdapters().stream().sorted().toList(), snapshot.ageMillis(now));
	}

	private static List<DecisionView> views(List<DecisionRecord> records) {
		List<DecisionView> views = new ArrayList<>(records.size());
		for (DecisionRecord record : records) {
			views.add(view(record));
		}
		return views;
	}

	static DecisionView view(DecisionRecord record) {
		List<CandidateView> scores = new ArrayList<>(record.scores().size());
		for (DecisionRecord.EndpointScores candidate : record.scores()) {
			scores.add(new CandidateView(candidate.endpoint(), candidate.scores(), candidate.total()));
		}
		List<FilteredView> filteredOut = new ArrayList<>(record.filteredOut().size());
		for (DecisionRecord.FilteredOut removed : record.filteredOut()) {
			filteredOut.add(new FilteredView(removed.endpoint(), removed.filter()));
		}
		return new DecisionView(record.sequence(), record.time().toString(), record.pool(), record.model(),
				record.adapter(), record.profile(), record.picker(), record.weights(), record.chosen(),
				record.outcome().label(), (record.settlement() != null) ? record.settlement().via() : null,
				record.candidateCount(), record.durationNanos() / 1000.0, scores,
				filteredOut, InferenceReport.RequestUsage.of(record.settlement()));
	}

	/**
	 * The optional sources of the dashboard's sections; a {@code null} source leaves its section out.
	 *
	 * @param models the models and their targets
	 * @param tenants tenants' usage against their limits
	 * @param flowControl the flow-control queues
	 * @param circuits each endpoint's circuit state
	 * @param configuration the running configuration's version
	 * @param budgets the budgets and what is spent of them
	 */
	public record Sources(ModelCatalogSource models, TenantUsageSource tenants, FlowControlQueueSource flowControl,
			CircuitStateSource circuits, ConfigurationSource configuration, BudgetSource budgets,
			TokenizerSource tokenizers) {

		public Sources(ModelCatalogSource models, TenantUsageSource tenants, FlowControlQueueSource flowControl,
				CircuitStateSource circuits) {
			this(models, tenants, flowControl, circuits, null, null, null);
		}

		public static Sources none() {
			return new Sources(null, null, null, null, null, null, null);
		}
	}

	/** What counts a pool's prompt tokens: a tokenizer file's path or a name, or {@code null} when estimated. */
	@FunctionalInterface
	public interface TokenizerSource {

		String tokenizer(String pool);
	}
}
