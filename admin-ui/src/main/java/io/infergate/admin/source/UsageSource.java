package io.infergate.admin.source;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * Usage and spend from the ledger, for {@code GET /admin/api/usage} and the dashboard's Usage view. The gateway
 * provides it when the ledger is on; without one those answer 404.
 */
public interface UsageSource {

	/** The fields rows can be grouped by. */
	Set<String> GROUPS = Set.of("tenant", "key", "model");

	/** The intervals rows can be bucketed by. */
	Set<String> INTERVALS = Set.of("minute", "hour", "day");

	/**
	 * The usage from {@code from} (inclusive) to {@code to} (exclusive), summed per distinct value of the
	 * {@code groupBy} fields (and per {@code interval} when one is given), including what this replica has not written
	 * yet.
	 *
	 * @throws UnavailableException when the database cannot be read
	 */
	Usage usage(Query query) throws UnavailableException;

	/**
	 * What to sum.
	 *
	 * @param from the first instant counted, or {@code null} for the beginning
	 * @param to the first instant not counted
	 * @param groupBy some of {@link #GROUPS}, in the order given
	 * @param interval one of {@link #INTERVALS}, or {@code null} for one row per group over the whole span
	 */
	record Query(Instant from, Instant to, List<String> groupBy, String interval) {
	}

	/**
	 * The answer.
	 *
	 * @param currency the currency of every cost
	 * @param rows one per group (and interval), largest cost first, or by time with an interval
	 * @param budgets every configured budget and what is spent of it now
	 */
	record Usage(String currency, List<Row> rows, List<BudgetSource.BudgetView> budgets) {
	}

	/**
	 * One group's sums. A field not grouped by is {@code null}.
	 *
	 * @param time the interval's start, an ISO instant, or {@code null} without an interval
	 * @param tenant the tenant
	 * @param key the key id, never the key
	 * @param model the model as the client asked for it
	 * @param requests requests a model server was asked to serve
	 * @param inputTokens prompt tokens
	 * @param cachedInputTokens of those, served from the engine's prefix cache
	 * @param outputTokens completion tokens
	 * @param cost what they cost at their model's price
	 */
	record Row(String time, String tenant, String key, String model, long requests, long inputTokens,
			long cachedInputTokens, long outputTokens, double cost) {
	}

	/** The ledger's database cannot be read now. */
	final class UnavailableException extends Exception {

		private static final long serialVersionUID = 1L;

		public UnavailableException(String message, Throwable cause) {
			super(message, cause);
		}
	}
}
