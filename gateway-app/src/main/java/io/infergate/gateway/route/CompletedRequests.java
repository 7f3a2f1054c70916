package io.infergate.gateway.route;

import io.infergate.gateway.ledger.UsageLedger;
import io.infergate.gateway.observe.AccessLog;
import io.infergate.gateway.observe.CompletedRequest;
import io.infergate.gateway.observe.InferenceMeters;
import io.infergate.gateway.observe.SpendMeters;
import io.infergate.routing.limits.TokenUsage;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.spend.Budget;
import io.infergate.routing.spend.Costs;
import io.infergate.routing.spend.Price;

/**
 * Where an ended inference request is recorded, whichever adapter carried it (the HTTP route's
 * {@link ObserveFilter}, the Endpoint Picker): its metrics, its cost, the usage its decision's record shows, the
 * usage ledger and the access log.
 */
public final class CompletedRequests {

	private final InferenceMeters meters;

	private final AccessLog accessLog;

	private final SpendMeters spend;

	private final UsageLedger ledger;

	/**
	 * @param accessLog the access log, or {@code null} when it is off
	 * @param spend prices requests and counts their cost, or {@code null}: every request costs 0
	 * @param ledger the usage ledger, or {@code null} when it is off
	 */
	public CompletedRequests(InferenceMeters meters, AccessLog accessLog, SpendMeters spend, UsageLedger ledger) {
		this.meters = meters;
		this.accessLog = accessLog;
		this.spend = spend;
		this.ledger = ledger;
	}

	/** The prices requests are costed at, or {@code null}: every request costs 0. */
	public Costs costs() {
		return (spend != null) ? spend.costs() : null;
	}

	/** At {@code model}'s price, {@code used}; 0 without a price. */
	public double cost(String model, TokenUsage used) {
		Costs costs = costs();
		Price price = (costs != null && model != null) ? costs.price(model) : null;
		return (price != null) ? price.cost(used) : 0;
	}

	/**
	 * Records {@code request}.
	 *
	 * @param inference the engine's request, or {@code null} when it ended before the model was resolved
	 * @param used the usage its limits settled with
	 * @param reachedModelServer whether some endpoint took it
	 */
	public void record(CompletedRequest request, InferenceRequest inference, TokenUsage used,
			boolean reachedModelServer) {
		meters.record(request);
		if (spend != null) {
			spend.record(request);
		}
		if (inference != null) {
			inference.settlement().settle(used, request.cost(), (spend != null) ? spend.costs().currency() : null);
			if (ledger != null) {
				ledger.record(request.tenant(), request.apiKeyId(), request.model(), reachedModelServer, used,
						Budget.toNanos(request.cost()));
			}
		}
		if (accessLog != null) {
			accessLog.log(request);
		}
	}
}
