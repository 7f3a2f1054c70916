package io.infergate.routing.scheduling.config;

import java.util.List;

import io.infergate.routing.config.InvalidConfigurationException;

/**
 * The scheduling configuration under {@code infergate.scheduling} is invalid. The message lists every problem
 * found, each with the property at fault and, for an unknown name, the valid names.
 */
public class SchedulingConfigurationException extends InvalidConfigurationException {

	public SchedulingConfigurationException(List<String> problems) {
		super("Invalid scheduling configuration", problems,
				"Fix the properties named above under infergate.scheduling. A profile names plugin instances: "
						+ "predefined ones, those declared under infergate.scheduling.plugins (each with a type "
						+ "and that type's parameters) and plugin beans; the valid names, types and parameters are "
						+ "listed.");
	}
}
