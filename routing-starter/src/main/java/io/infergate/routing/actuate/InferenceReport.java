package io.infergate.routing.actuate;

import java.util.List;
import java.util.Map;

import io.infergate.routing.engine.LiveConfiguration;
import io.infergate.routing.flowcontrol.PoolFlowReport;
import io.infergate.routing.prefix.PrefixIndexStats;
import io.infergate.routing.replica.DispatchSharingStats;

/**
 * The body of {@code GET /actuator/inference}. Field names are part of the contract that tests, the dashboard and
 * operators' scripts read. {@code prefixIndex} (the approximate prefix index's size, blocks per endpoint, memory and
 * the hit ratio of its own predictions) is {@code null} when no profile uses the index. {@code models} shows how each
 * configured model name routes, with counts since start. {@code tenants} lists each tenant's requests and tokens
 * since startup and its current usage against each limit that applies to it (its own, and those of its keys and
 * key × model pairs); it is empty while neither keys nor limits are configured. {@code dispatchSharing} (what this
 * replica told its peers and heard from them) is {@code null} unless dispatch sharing is on. {@code configuration} is
 * the running configuration's version, when it took effect, and how the latest reload went. {@code budgets} lists
 * every configured budget and what is spent of it now; empty without budgets.
 */
public record InferenceReport(List<Pool> pools, List<Decision> decisions, PrefixIndexStats prefixIndex,
		List<Model> models, List<Tenant> tenants, DispatchSharingStats dispatchSharing,
		LiveConfiguration.Status configuration, List<BudgetUsage> budgets) {

	/**
	 * One configured budget now: {@code scope} ({@code key}, {@code tenant}, {@code model}, {@code key-model} or a
	 * limit type's name) and {@code subject} as in {@link LimitUsage}; {@code period} {@code day}, {@code month} or
	 * {@code rolling-24h}; {@code mode} {@code hard} or {@code soft}; {@code amount}, {@code spent} (by requests that
	 * ended in the current window) and {@code held} (by requests still running) in {@code currency}; {@code window}
	 * its id ({@code 2026-12-07}, {@code 2026-12}, {@code r24}); {@code resetsAt} when spend starts to leave it (ISO
	 * instant, or {@code null}); {@code reached} whether what is spent reaches the amount.
	 */
	public record BudgetUsage(String scope, String subject, String period, String mode, double amount, double spent,
			double held, String currency, String window, String resetsAt, boolean reached) {
	}

	/**
	 * One pool; {@code flowControl} shows its requests in flight through flow control and those waiting, per band
	 * (priority) and tenant, with each tenant's virtual token counter; {@code null} until the pool's first request.
	 * {@code retiring} is true for a pool a configuration reload removed while requests may still be on their way to
	 * it; it leaves the report once idle. {@code tokenCounts} says how the pool's prompt tokens (its endpoints'
	 * in-flight tokens, limits, lanes) are counted: {@code exact} by {@code tokenizer} (the file's path), or
	 * {@code estimated} (characters / 4; {@code tokenizer} null). A model may have a tokenizer of its own: see
	 * {@code models[]}.
	 */
	public record Pool(String name, String engine, String profile, String failureMode, List<Endpoint> endpoints,
			PoolFlowReport flowControl, boolean retiring, String tokenCounts, String tokenizer) {
	}

	/**
	 * One endpoint; {@code metrics} is {@code null} until its first successful scrape; {@code circuit} is
	 * {@code closed}, {@code open} (it receives nothing) or {@code half-open} (probes pass).
	 */
	public record Endpoint(String id, boolean ready, Metrics metrics, InFlight inFlight, String circuit) {
	}

	public record Metrics(int waitingRequests, int runningRequests, double kvCacheUsage, int blockSize,
			int numGpuBlocks, int maxLoras, List<String> runningAdapters, List<String> waitingAdapters,
			long ageMillis, boolean stale) {
	}

	public record InFlight(int requests, long tokens) {
	}

	/**
	 * One decision; {@code scores} maps each candidate endpoint to its scorers' raw scores in [0,1] and the weighted
	 * total. Beyond the contract's fields: the profile's {@code picker}, each scorer's {@code weights},
	 * {@code filteredOut}, the endpoints a filter removed and which filter removed each, and once the request's
	 * response ended, what it used and cost ({@code usage}, {@code null} while it runs). {@code via} is the front
	 * door that carried the request: {@code http} or {@code ext-proc}.
	 */
	public record Decision(String time, String pool, String model, String adapter, String profile, String chosen,
			String outcome, String via, Map<String, EndpointScores> scores, String picker, Map<String, Double> weights,
			List<FilteredOut> filteredOut, RequestUsage usage) {
	}

	/**
	 * What a routed request used and cost, at its model's price.
	 *
	 * @param inputTokens prompt tokens
	 * @param cachedInputTokens of those, from the engine's prefix cache
	 * @param outputTokens completion tokens
	 * @param cost its cost
	 * @param currency the cost's currency
	 */
	public record RequestUsage(long inputTokens, long cachedInputTokens, long outputTokens, double cost,
			String currency) {

		/** The usage of {@code settlement}, or {@code null} while the request runs (or when it is unknown). */
		public static RequestUsage of(io.infergate.routing.request.Settlement settlement) {
			if (settlement == null || !settlement.isSettled()) {
				return null;
			}
			var usage = settlement.usage();
			return new RequestUsage(usage.inputTokens(), usage.cachedInputTokens(), usage.outputTokens(),
					settlement.cost(), settlement.currency());
		}
	}

	public record EndpointScores(Map<String, Double> scorers, double total) {
	}

	public record FilteredOut(String endpoint, String filter) {
	}

	/**
	 * One tenant: requests admitted, refused with 429 by a rate limit and by a spent hard budget since startup, the
	 * input and output tokens they used, and its limits now.
	 */
	public record Tenant(String name, long requests, long rateLimited, long budgetExhausted, long inputTokens,
			long outputTokens, List<LimitUsage> limits) {
	}

	/**
	 * One limit now: {@code scope} is {@code tenant}, {@code key} or {@code key-model}, {@code subject} the tenant,
	 * key id or {@code key/model}, {@code limit} one of {@code rpm}, {@code tpm}, {@code max-parallel};
	 * {@code used} and {@code remaining} add up to {@code value}; {@code resetMillis} is the time until it is full
	 * again.
	 */
	public record LimitUsage(String scope, String subject, String limit, long value, long used, long remaining,
			long resetMillis) {
	}

	/**
	 * A configured model name: its weighted {@code targets} (one for a single-target model) or its {@code lanes}, how
	 * {@code stickyBy} keeps a caller on one target ({@code user}, {@code session}, {@code api-key} or
	 * {@code none}), its {@code fallbacks} in the order they are tried, and {@code fallbacksTaken}: requests that this
	 * model could not serve before their first byte and that moved on to the next fallback. {@code tokenizer} is the
	 * path of the model's own tokenizer, which counts its requests' tokens (lanes, limits) exactly; null: its pool's
	 * ({@code pools[].tokenCounts}).
	 */
	public record Model(String name, List<Target> targets, List<Lane> lanes, String stickyBy, List<String> fallbacks,
			long fallbacksTaken, String tokenizer) {
	}

	/** One weighted target; {@code requests} counts the requests routed to it, fallback attempts included. */
	public record Target(String pool, String targetModel, String adapter, int weight, long requests) {
	}

	/**
	 * One lane: requests whose prompt tokens (counted by the tokenizer, else estimated) plus {@code max_tokens} are at
	 * most {@code maxTokens} ({@code null}: any) go to its pool as {@code targetModel} (and {@code adapter}), unless
	 * an earlier lane took them; {@code requests} counts them.
	 */
	public record Lane(Integer maxTokens, String pool, String targetModel, String adapter, long requests) {
	}
}
