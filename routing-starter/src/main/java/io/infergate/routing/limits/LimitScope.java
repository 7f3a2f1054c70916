package io.infergate.routing.limits;

/** Whose limits a bucket holds. */
public enum LimitScope {

	/** One API key: {@code infergate.auth.keys.<id>.limits}, or {@code infergate.rate-limits.default-limits}. */
	KEY("key"),

	/** Every key of one tenant together: {@code infergate.auth.tenants.<tenant>.limits}. */
	TENANT("tenant"),

	/** Every caller of one model together: {@code infergate.models.<model>.limits}. */
	MODEL("model"),

	/** One key calling one model: {@code infergate.auth.keys.<id>.model-limits.<model>}. */
	KEY_MODEL("key-model");

	private final String label;

	LimitScope(String label) {
		this.label = label;
	}

	/** The name in store keys, metrics and {@code /actuator/inference}. */
	public String label() {
		return label;
	}
}
