package io.infergate.routing.config;

import java.util.List;

/**
 * A check of configuration that names other configuration (a pool's scheduling profile, a model's pools and
 * fallbacks), run once at startup before any pool is created. Every check's problems are reported together, so one
 * failed start lists everything to fix.
 */
@FunctionalInterface
public interface ConfigurationCheck {

	/**
	 * The problems found, each one sentence that starts with the property path at fault and, for a name that matches
	 * nothing, lists the valid names. Empty when the configuration is valid.
	 */
	List<String> problems();
}
