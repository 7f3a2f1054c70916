package io.infergate.admin.snapshot;

import java.util.List;
import java.util.Map;

import io.infergate.admin.source.BudgetSource.BudgetView;
import io.infergate.admin.source.FlowControlQueueSource.FlowControlQueue;
import io.infergate.admin.source.ModelCatalogSource.ModelView;
import io.infergate.admin.source.TenantUsageSource.TenantUsage;
import io.infergate.routing.actuate.InferenceReport;
import io.infergate.routing.engine.LiveConfiguration;

/**
 * What every open dashboard receives on each tick: computed once per tick and sent to all of them. A section whose
 * source is absent is {@code null} and left out of the JSON, and the page draws only the sections it receives, so
 * a new section is a new field here and a renderer in the page.
 *
 * @param timeMillis when the snapshot was taken, epoch milliseconds
 * @param pools every pool with its endpoints
 * @param decisions the decisions recorded since the previous tick, newest first
 * @param models the models and their targets, or {@code null}
 * @param tenants each tenant's usage against its limits, or {@code null}
 * @param flowControl the flow-control queues, or {@code null}
 * @param configuration the running configuration's version and its latest reload, or {@code null}
 * @param budgets every budget and what is spent of it, or {@code null}
 */
public record DashboardSnapshot(long timeMillis, List<PoolView> pools, List<DecisionView> decisions,
		List<ModelView> models, List<TenantUsage> tenants, List<FlowControlQueue> flowControl,
		LiveConfiguration.Status configuration, List<BudgetView> budgets) {

	/**
	 * One pool.
	 *
	 * @param name the pool's name
	 * @param engine its engine type
	 * @param profile the name of its scheduling profile
	 * @param failureMode {@code fail-close} or {@code fail-open}
	 * @param endpoints its endpoints
	 * @param retiring whether a configuration reload removed it and it drains the requests on their way to it
	 * @param tokenCounts {@code exact} when its prompts are counted by its tokenizer, else {@code estimated}
	 * (characters / 4)
	 * @param tokenizer what counts them (a tokenizer file's path, or {@code simulator}), or {@code null}
	 */
	public record PoolView(String name, String engine, String profile, String failureMode,
			List<EndpointView> endpoints, boolean retiring, String tokenCounts, String tokenizer) {
	}

	/**
	 * One endpoint's card.
	 *
	 * @param id {@code host:port}
	 * @param ready whether it takes traffic (scraped, and its scrapes succeed)
	 * @param stale whether its metrics are older than the staleness threshold
	 * @param circuit its circuit's state, or {@code null} when no circuit breaker reports one
	 * @param metrics its latest engine figures, or {@code null} before its first scrape
	 * @param inFlightRequests requests the gateway sent there that have not finished
	 * @param inFlightTokens their tokens: prompt plus {@code max_tokens}, the prompt counted by the pool's tokenizer
	 * or estimated ({@link PoolView#tokenCounts()})
	 * @param picksLastMinute requests the scheduler sent there in the last minute
	 * @param pickShareLastMinute its share of the pool's picks in the last minute, 0..1
	 * @param sample the newest point of its charts
	 */
	public record EndpointView(String id, boolean ready, boolean stale, String circuit, MetricsView metrics,
			int inFlightRequests, long inFlightTokens, long picksLastMinute, double pickShareLastMinute,
			EndpointHistory.Sample sample) {
	}

	/**
	 * An endpoint's engine figures.
	 *
	 * @param waitingRequests requests queued in the engine
	 * @param runningRequests requests in its running batch
	 * @param kvCacheUsage fraction of its KV cache in use, 0..1
	 * @param maxLoras LoRA adapter slots
	 * @param runningAdapters adapters with running requests
	 * @param waitingAdapters adapters with waiting requests
	 * @param ageMillis age of the scrape
	 */
	public record MetricsView(int waitingRequests, int runningRequests, double kvCacheUsage, int maxLoras,
			List<String> runningAdapters, List<String> waitingAdapters, long ageMillis) {
	}

	/**
	 * One recorded decision.
	 *
	 * @param sequence the recorder's number for it; higher is newer
	 * @param time ISO-8601
	 * @param pool the request's pool
	 * @param model the model the client asked for
	 * @param adapter its LoRA adapter, or {@code null}
	 * @param profile the profile that decided, or {@code null}
	 * @param picker the profile's picker, or {@code null}
	 * @param weights each scorer's weight by scorer name, in the profile's order
	 * @param chosen the endpoint chosen, or {@code null}
	 * @param outcome {@code picked}, {@code no-candidates}, {@code failed-open} or {@code error}
	 * @param via the front door that carried the request: {@code http} or {@code ext-proc}
	 * @param candidateCount endpoints left after the filters
	 * @param durationMicros time spent deciding
	 * @param scores per candidate: each scorer's raw score and the weighted total
	 * @param filteredOut endpoints a filter removed, and which filter
	 * @param usage what the request used and cost, once its response ended; {@code null} before
	 */
	public record DecisionView(long sequence, String time, String pool, String model, String adapter,
			String profile, String picker, Map<String, Double> weights, String chosen, String outcome, String via,
			int candidateCount, double durationMicros, List<CandidateView> scores, List<FilteredView> filteredOut,
			InferenceReport.RequestUsage usage) {
	}

	/**
	 * One candidate of a decision.
	 *
	 * @param endpoint {@code host:port}
	 * @param scores raw score in [0,1] by scorer name
	 * @param total the weighted total
	 */
	public record CandidateView(String endpoint, Map<String, Double> scores, double total) {
	}

	/**
	 * An endpoint a filter removed.
	 *
	 * @param endpoint {@code host:port}
	 * @param filter the filter
	 */
	public record FilteredView(String endpoint, String filter) {
	}
}
