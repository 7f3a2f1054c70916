package io.infergate.routing.flowcontrol;

import java.util.List;

/**
 * One pool's flow control as {@code /actuator/inference} shows it.
 *
 * @param pool the pool
 * @param inFlightRequests requests dispatched through flow control that have not ended
 * @param inFlightTokens their estimated tokens
 * @param queuedRequests requests waiting
 * @param queuedBytes their bytes
 * @param bands every band seen so far, highest priority first
 */
public record PoolFlowReport(String pool, int inFlightRequests, long inFlightTokens, int queuedRequests,
		long queuedBytes, List<Band> bands) {

	/** One priority's waiting requests, per tenant. */
	public record Band(int priority, int queuedRequests, long queuedBytes, List<Tenant> tenants) {
	}

	/** One tenant in one band: its waiting requests and its virtual token counter. */
	public record Tenant(String tenant, int queuedRequests, double virtualTokens) {
	}
}
