package io.infergate.gateway.ledger;

/**
 * Sums of one group: per minute (epoch minutes), tenant, key id and model in a batch, or per the grouping of a query
 * (a field not grouped by is {@code null}, a minute not bucketed by is -1).
 *
 * @param minute the minute (or the start of the hour or day bucket), in minutes since the epoch, or -1
 * @param tenant the tenant, or {@code null}
 * @param key the key id, or {@code null}
 * @param model the model the client asked for, or {@code null}
 * @param requests requests a model server was asked to serve
 * @param inputTokens prompt tokens
 * @param cachedInputTokens prompt tokens from the engine's prefix cache
 * @param outputTokens completion tokens
 * @param costNanos cost in nano-units of the currency
 */
record UsageRow(long minute, String tenant, String key, String model, long requests, long inputTokens,
		long cachedInputTokens, long outputTokens, long costNanos) {

	/** The group this row belongs to: its fields of {@code groupBy}, and its minute bucketed by {@code bucketMinutes}. */
	Group group(boolean tenant, boolean key, boolean model, long bucketMinutes) {
		return new Group((bucketMinutes > 0) ? minute - Math.floorMod(minute, bucketMinutes) : -1,
				tenant ? this.tenant : null, key ? this.key : null, model ? this.model : null);
	}

	UsageRow plus(UsageRow other) {
		return new UsageRow(minute, tenant, key, model, requests + other.requests, inputTokens + other.inputTokens,
				cachedInputTokens + other.cachedInputTokens, outputTokens + other.outputTokens,
				costNanos + other.costNanos);
	}

	UsageRow in(Group group) {
		return new UsageRow(group.minute(), group.tenant(), group.key(), group.model(), requests, inputTokens,
				cachedInputTokens, outputTokens, costNanos);
	}

	/** A group's identity. */
	record Group(long minute, String tenant, String key, String model) {
	}
}
