package io.infergate.routing.scheduling.config;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports an invalid {@code infergate.scheduling} configuration as the list of its problems, instead of the stack of
 * bean-creation exceptions that wrap it.
 */
public class SchedulingConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<SchedulingConfigurationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, SchedulingConfigurationException cause) {
		return new FailureAnalysis(cause.getMessage(),
				"Fix the properties named above under infergate.scheduling. Plugin names must match a filter, "
						+ "scorer or picker bean's name(); the valid names of each kind are listed.",
				cause);
	}
}
