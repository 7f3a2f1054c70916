package io.infergate.admin.source;

import java.time.Instant;
import java.util.List;

/**
 * The running configuration's version, for the dashboard's header and its configuration view. The engine's live
 * configuration provides it; without one the section is left out.
 */
@FunctionalInterface
public interface ConfigurationSource {

	ConfigurationVersion version();

	/**
	 * @param version 1 at startup, one more for each reload that changed something
	 * @param changedAt when the running version took effect
	 * @param lastReloadAt the latest reload attempt, or null
	 * @param lastReloadOutcome {@code applied}, {@code unchanged} or {@code rejected}, or null
	 * @param problems why the latest reload was rejected
	 */
	record ConfigurationVersion(long version, Instant changedAt, Instant lastReloadAt, String lastReloadOutcome,
			List<String> problems) {
	}
}
