package io.infergate.routing.scheduling.decision;

/** How one scheduling decision ended. {@link #label()} is the value shown in records and on the dashboard. */
public enum DecisionOutcome {

	/** The picker chose an endpoint. */
	PICKED("picked"),

	/** The filters left no candidate, and the pool failed closed. */
	NO_CANDIDATES("no-candidates"),

	/** The filters left no candidate, and the pool's fail-open mode sent the request to an endpoint anyway. */
	FAILED_OPEN("failed-open"),

	/** Scheduling threw. */
	ERROR("error");

	private final String label;

	DecisionOutcome(String label) {
		this.label = label;
	}

	public String label() {
		return label;
	}

	@Override
	public String toString() {
		return label;
	}
}
