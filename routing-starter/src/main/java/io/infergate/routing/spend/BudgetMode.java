package io.infergate.routing.spend;

/** What a budget does once it is spent. */
public enum BudgetMode {

	/** Refuses what would go beyond it: 429 with OpenAI's {@code insufficient_quota} error. */
	HARD("hard"),

	/** Only warns: a log line, {@code infergate.budget.exceeded}, a dashboard badge and the optional webhook. */
	SOFT("soft");

	private final String configName;

	BudgetMode(String configName) {
		this.configName = configName;
	}

	public String configName() {
		return configName;
	}
}
