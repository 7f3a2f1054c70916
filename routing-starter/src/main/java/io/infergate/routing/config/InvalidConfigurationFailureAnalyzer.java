package io.infergate.routing.config;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports an {@link InvalidConfigurationException} (of the scheduling profiles, the pools or the models) as the list
 * of its problems, instead of the stack of bean-creation exceptions that wrap it.
 */
public class InvalidConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<InvalidConfigurationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidConfigurationException cause) {
		return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
	}
}
