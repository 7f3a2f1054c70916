package io.infergate.routing.request;

import io.infergate.routing.limits.TokenUsage;

/**
 * What one request turned out to use and cost, filled in when its response ends, so that the record of the decision
 * that routed it can show it ({@code /actuator/inference}, the dashboard's decision view). Until then it is not
 * settled. Written once by the gateway, read by any thread.
 */
public final class Settlement {

	private volatile TokenUsage usage;

	private volatile double cost;

	private volatile String currency;

	/** Records the request's usage and its cost in {@code currency}; the last call wins. */
	public void settle(TokenUsage usage, double cost, String currency) {
		this.cost = cost;
		this.currency = currency;
		this.usage = usage;
	}

	public boolean isSettled() {
		return usage != null;
	}

	/** The usage the request's limits settled with, or {@code null} while it runs. */
	public TokenUsage usage() {
		return usage;
	}

	/** What it cost at its model's price; 0 while it runs. */
	public double cost() {
		return (usage != null) ? cost : 0;
	}

	/** The currency of {@link #cost()}, or {@code null} while it runs. */
	public String currency() {
		return (usage != null) ? currency : null;
	}
}
