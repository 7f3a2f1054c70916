package io.infergate.admin.security;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports an invalid {@code infergate.management} configuration as the list of its problems. */
public class ManagementSecurityFailureAnalyzer extends AbstractFailureAnalyzer<ManagementSecurityException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, ManagementSecurityException cause) {
		return new FailureAnalysis(cause.getMessage(),
				"Fix the properties named above under infergate.management. A password hash is made with "
						+ "'java -jar gateway-app.jar hash-password'; a bearer token's hash with "
						+ "'printf %s TOKEN | sha256sum'.",
				cause);
	}
}
