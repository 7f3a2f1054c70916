package io.infergate.routing.actuate;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

import io.infergate.routing.tokenization.RequestTokenizer;
import io.infergate.routing.tokenization.Tokenizers;
import io.infergate.routing.limits.LimitState;
import io.infergate.routing.limits.RateLimiter;
import io.infergate.routing.limits.TenantMeters;
import io.infergate.routing.spend.BudgetLine;
import io.infergate.routing.spend.BudgetState;
import io.infergate.routing.circuit.EndpointCircuits;
import io.infergate.routing.endpoint.EndpointMetrics;
import io.infergate.routing.endpoint.EndpointSnapshot;
import io.infergate.routing.engine.LiveConfiguration;
import io.infergate.routing.flowcontrol.FlowController;
import io.infergate.routing.pool.EndpointPool;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.prefix.PrefixIndex;
import io.infergate.routing.replica.DispatchSharing;
import io.infergate.routing.scheduling.config.SchedulingProfiles;
import io.infergate.routing.scheduling.decision.DecisionRecord;
import io.infergate.routing.scheduling.decision.DecisionRecorder;
import io.infergate.routing.scheduling.saturation.SaturationDetector;

/**
 * {@code /actuator/inference}: every pool with its endpoints' latest metrics (their age, and whether they are
 * stale under the saturation detector's threshold) and the gateway's in-flight counts, then the most recent
 * scheduling decisions, newest first (each candidate's raw scores, the {@code prefix-cache} score being its prefix
 * match), then the prefix index's figures, then the configured models' routing (from the application's
 * {@link InferenceModelsContributor}), then each tenant's usage against its limits, then the figures of dispatch
 * sharing between gateway replicas. Each pool shows its flow control queues and each endpoint its circuit state.
 */
@Endpoint(id = "inference")
public class InferenceEndpoint {

	private static final Duration LIMITS_READ_TIMEOUT = Duration.ofSeconds(2);

	private final Tokenizers tokenizers;

	private final EndpointRegistry registry;

	private final SchedulingProfiles profiles;

	private final DecisionRecorder decisions;

	private final SaturationDetector saturation;

	private final Clock clock;

	private final PrefixIndex prefixIndex;

	private final InferenceModelsContributor models;

	private final RateLimiter rateLimiter;

	private final DispatchSharing dispatchSharing;

	private final EndpointCircuits circuits;

	private final FlowController flowControl;

	private final Supplier<LiveConfiguration.Status> configuration;

	/**
	 * @param prefixIndex the prefix index, or {@code null}
	 * @param models the application's model routing, or one that reports none
	 * @param rateLimiter the limits, whose tenants are reported; {@code null} for none
	 * @param dispatchSharing the replica's dispatch sharing, or {@code null} when it is off
	 * @param configuration the running configuration's status, or {@code null} without live configuration
	 */
	public InferenceEndpoint(EndpointRegistry registry, SchedulingProfiles profiles, DecisionRecorder decisions,
			SaturationDetector saturation, Clock clock, PrefixIndex prefixIndex, InferenceModelsContributor models,
			RateLimiter rateLimiter, DispatchSharing dispatchSharing, EndpointCircuits circuits,
			FlowController flowControl, Supplier<LiveConfiguration.Status> configuration, Tokenizers tokenizers) {
		this.tokenizers = tokenizers;
		this.registry = registry;
		this.profiles = profiles;
		this.decisions = decisions;
		this.saturation = saturation;
		this.clock = clock;
		this.prefixIndex = prefixIndex;
		this.models = models;
		this.rateLimiter = rateLimiter;
		this.dispatchSharing = dispatchSharing;
		this.circuits = circuits;
		this.flowControl = flowControl;
		this.configuration = configuration;
	}

	@ReadOperation
	public InferenceReport inference() {
		long now = clock.millis();
		List<InferenceReport.Pool> pools = new ArrayList<>();
		for (EndpointPool pool : registry.pools()) {
			List<InferenceReport.Endpoint> endpoints = new ArrayList<>();
			for (io.infergate.routing.endpoint.Endpoint endpoint : pool.endpoints()) {
				endpoints.add(new InferenceReport.Endpoint(endpoint.id().toString(), endpoint.isReady(),
						metrics(endpoint, now),
						new InferenceReport.InFlight(endpoint.inFlightRequests(), endpoint.inFlightTokens()),
						circuits.state(endpoint.id())));
			}
			RequestTokenizer tokenizer = tokenizers.forPool(pool.name());
			pools.add(new InferenceReport.Pool(pool.name(), pool.engine().configName(),
					profiles.resolve(pool.profileName()).name(), pool.failureMode().configName(), endpoints,
					flowControl.report(pool.name()), pool.isRetiring(), (tokenizer != null) ? "exact" : "estimated",
					(tokenizer != null) ? tokenizer.describe() : null));
		}
		List<InferenceReport.Decision> recent = new ArrayList<>();
		for (DecisionRecord record : decisions.recent()) {
			recent.add(decision(record));
		}
		return new InferenceReport(pools, recent, (prefixIndex != null) ? prefixIndex.stats() : null, models.models(),
				tenants(), (dispatchSharing != null) ? dispatchSharing.stats() : null, configuration.get(), budgets());
	}

	private List<InferenceReport.BudgetUsage> budgets() {
		if (rateLimiter == null || rateLimiter.budgets() == null || !rateLimiter.policy().budgetsAnything()) {
			return List.of();
		}
		String currency = rateLimiter.budgets().costs().currency();
		List<InferenceReport.BudgetUsage> budgets = new ArrayList<>();
		for (BudgetState state : rateLimiter.budgetStates(LIMITS_READ_TIMEOUT)) {
			BudgetLine line = state.line();
			budgets.add(new InferenceReport.BudgetUsage(line.scope().label(), line.subject(),
					line.budget().period().configName(), line.budget().mode().configName(), line.budget().amount(),
					state.spent(), state.held(), currency, state.window().id(),
					(state.resetsAt() != null) ? state.resetsAt().toString() : null, state.exhausted()));
		}
		return budgets;
	}

	private List<InferenceReport.Tenant> tenants() {
		if (rateLimiter == null) {
			return List.of();
		}
		Map<String, TenantMeters.Totals> totals = rateLimiter.meters().totals();
		java.util.TreeSet<String> names = new java.util.TreeSet<>(rateLimiter.policy().tenants());
		names.addAll(totals.keySet());
		List<InferenceReport.Tenant> tenants = new ArrayList<>();
		for (String name : names) {
			TenantMeters.Totals counts = totals.get(name);
			tenants.add(new InferenceReport.Tenant(name, (counts != null) ? counts.admitted() : 0,
					(counts != null) ? counts.rateLimited() : 0, (counts != null) ? counts.budgetExhausted() : 0,
					(counts != null) ? counts.inputTokens() : 0,
					(counts != null) ? counts.outputTokens() : 0, limits(rateLimiter.tenantLimits(name, LIMITS_READ_TIMEOUT))));
		}
		return tenants;
	}

	private static List<InferenceReport.LimitUsage> limits(List<LimitState> states) {
		List<InferenceReport.LimitUsage> limits = new ArrayList<>(states.size());
		for (LimitState state : states) {
			limits.add(new InferenceReport.LimitUsage(state.bucket().scope().label(), state.bucket().subject(),
					state.kind().configName(), state.limit(), state.used(), state.remaining(),
					(state.resetMicros() + 999) / 1000));
		}
		return limits;
	}

	private InferenceReport.Metrics metrics(io.infergate.routing.endpoint.Endpoint endpoint, long now) {
		EndpointSnapshot snapshot = endpoint.snapshot();
		if (snapshot == null) {
			return null;
		}
		EndpointMetrics metrics = snapshot.metrics();
		return new InferenceReport.Metrics(metrics.waitingRequests(), metrics.runningRequests(),
				metrics.kvCacheUsage(), metrics.blockSize(), metrics.numGpuBlocks(), metrics.maxLoras(),
				metrics.runningAdapters().stream().sorted().toList(),
				metrics.waitingAdapters().stream().sorted().toList(), snapshot.ageMillis(now),
				saturation.isStale(endpoint, now));
	}

	private static InferenceReport.Decision decision(DecisionRecord record) {
		Map<String, InferenceReport.EndpointScores> scores = new LinkedHashMap<>();
		for (DecisionRecord.EndpointScores endpoint : record.scores()) {
			scores.put(endpoint.endpoint(), new InferenceReport.EndpointScores(endpoint.scores(), endpoint.total()));
		}
		List<InferenceReport.FilteredOut> filteredOut = new ArrayList<>(record.filteredOut().size());
		for (DecisionRecord.FilteredOut removed : record.filteredOut()) {
			filteredOut.add(new InferenceReport.FilteredOut(removed.endpoint(), removed.filter()));
		}
		return new InferenceReport.Decision(record.time().toString(), record.pool(), record.model(), record.adapter(),
				record.profile(), record.chosen(), record.outcome().label(),
				(record.settlement() != null) ? record.settlement().via() : null, scores, record.picker(), record.weights(),
				filteredOut, InferenceReport.RequestUsage.of(record.settlement()));
	}
}
