package io.infergate.routing.admission;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports an invalid {@code infergate.auth}, {@code infergate.rate-limits} or limits configuration as the list of
 * its problems, instead of the stack of bean-creation exceptions that wrap it.
 */
public class AdmissionConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<AdmissionConfigurationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, AdmissionConfigurationException cause) {
		return new FailureAnalysis(cause.getMessage(),
				"Fix the properties named above. An API key is configured by the SHA-256 of its secret, as 64 hex "
						+ "digits: 'java -jar gateway-app.jar hash-api-key' prints it. Limits are 0 (unlimited) or "
						+ "more.",
				cause);
	}
}
