package io.infergate.routing.admission;

import java.util.List;

/**
 * The API key, tenant, rate-limit or upstream-credential configuration is invalid. The message lists every
 * problem found, each with the property at fault; it never repeats a value that may be a secret.
 */
public class AdmissionConfigurationException extends IllegalStateException {

	private final List<String> problems;

	public AdmissionConfigurationException(List<String> problems) {
		super(message(problems));
		this.problems = List.copyOf(problems);
	}

	/** The problems, one sentence each. */
	public List<String> problems() {
		return problems;
	}

	private static String message(List<String> problems) {
		StringBuilder message = new StringBuilder("Invalid API key or rate-limit configuration:");
		for (String problem : problems) {
			message.append(System.lineSeparator()).append(" - ").append(problem);
		}
		return message.toString();
	}
}
