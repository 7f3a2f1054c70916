package io.infergate.routing.limits;

import java.util.Objects;

/**
 * Whose limits a bucket holds: one of the four built-in scopes, or a {@link LimitType} of an application's own,
 * under its name.
 *
 * @param label the name in store keys, metrics and {@code /actuator/inference}
 */
public record LimitScope(String label) {

	/** One API key: {@code infergate.auth.keys.<id>.limits}, or {@code infergate.rate-limits.default-limits}. */
	public static final LimitScope KEY = new LimitScope("key");

	/** Every key of one tenant together: {@code infergate.auth.tenants.<tenant>.limits}. */
	public static final LimitScope TENANT = new LimitScope("tenant");

	/** Every caller of one model together: {@code infergate.models.<model>.limits}. */
	public static final LimitScope MODEL = new LimitScope("model");

	/** One key calling one model: {@code infergate.auth.keys.<id>.model-limits.<model>}. */
	public static final LimitScope KEY_MODEL = new LimitScope("key-model");

	public LimitScope {
		Objects.requireNonNull(label, "label");
	}
}
