package io.infergate.routing.limits;

/** The three kinds of limit, with the words OpenAI's rate-limit errors use for them. */
public enum LimitKind {

	/** Requests per minute. */
	RPM("rpm", "requests", "requests per min (RPM)"),

	/** Tokens (prompt + completion) per minute. */
	TPM("tpm", "tokens", "tokens per min (TPM)"),

	/** Requests in flight at once. */
	MAX_PARALLEL("max-parallel", "requests", "parallel requests");

	private final String configName;

	private final String errorType;

	private final String description;

	LimitKind(String configName, String errorType, String description) {
		this.configName = configName;
		this.errorType = errorType;
		this.description = description;
	}

	/** The name in configuration and in the {@code limit} tag of metrics. */
	public String configName() {
		return configName;
	}

	/** The {@code type} of a 429 caused by this limit: {@code requests} or {@code tokens}. */
	public String errorType() {
		return errorType;
	}

	/** As in "Rate limit reached for gpt-4o-mini on tokens per min (TPM)". */
	public String description() {
		return description;
	}
}
