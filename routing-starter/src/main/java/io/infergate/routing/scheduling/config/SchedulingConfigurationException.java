package io.infergate.routing.scheduling.config;

import java.util.List;

/**
 * The scheduling configuration under {@code infergate.scheduling} is invalid. The message lists every problem
 * found, each with the property at fault and, for an unknown name, the valid names.
 */
public class SchedulingConfigurationException extends IllegalStateException {

	private final List<String> problems;

	public SchedulingConfigurationException(List<String> problems) {
		super(message(problems));
		this.problems = List.copyOf(problems);
	}

	/** The problems, one sentence each. */
	public List<String> problems() {
		return problems;
	}

	private static String message(List<String> problems) {
		StringBuilder message = new StringBuilder("Invalid scheduling configuration:");
		for (String problem : problems) {
			message.append(System.lineSeparator()).append(" - ").append(problem);
		}
		return message.toString();
	}
}
