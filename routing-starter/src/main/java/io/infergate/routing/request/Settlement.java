package io.infergate.routing.request;

import io.infergate.routing.limits.TokenUsage;

/**
 * What one request turned out to use and cost, filled in when its response ends, so that the record of the decision
 * that routed it can show it ({@code /actuator/inference}, the dashboard's decision view). Until then it is not
 * settled. Written once by the gateway, read by any thread.
 */
public final class Settlement {

	/** The request came through the HTTP API (the Spring Cloud Gateway route). */
	public static final String VIA_HTTP = "http";

	/** The request came through the Endpoint Picker (Envoy's ext_proc). */
	public static final String VIA_EXT_PROC = "ext-proc";

	private volatile String via;

	private volatile TokenUsage usage;

	private volatile double cost;

	private volatile String currency;

	/** Records the request's usage and its cost in {@code currency}; the last call wins. */
	public void settle(TokenUsage usage, double cost, String currency) {
		this.cost = cost;
		this.currency = currency;
		this.usage = usage;
	}

	/** Records which of the gateway's front doors carried the request, {@link #VIA_HTTP} or {@link #VIA_EXT_PROC}. */
	public void via(String adapter) {
		this.via = adapter;
	}

	/** Which front door carried the request, or {@code null} when no adapter said (the bench's replay). */
	public String via() {
		return via;
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
