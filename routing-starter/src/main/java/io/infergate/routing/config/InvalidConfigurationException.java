package io.infergate.routing.config;

import java.util.Collection;
import java.util.List;

/**
 * The configuration names something that does not exist, or holds values that cannot work. The message lists every
 * problem found, each with the property at fault.
 */
public class InvalidConfigurationException extends IllegalStateException {

	private final List<String> problems;

	public InvalidConfigurationException(List<String> problems) {
		super(message(problems));
		this.problems = List.copyOf(problems);
	}

	/** Runs every check and throws with all their problems, if any. */
	public static void throwIfAny(Collection<? extends ConfigurationCheck> checks) {
		List<String> problems = checks.stream().flatMap((check) -> check.problems().stream()).toList();
		if (!problems.isEmpty()) {
			throw new InvalidConfigurationException(problems);
		}
	}

	/** The problems, one sentence each. */
	public List<String> problems() {
		return problems;
	}

	private static String message(List<String> problems) {
		StringBuilder message = new StringBuilder("Invalid configuration:");
		for (String problem : problems) {
			message.append(System.lineSeparator()).append(" - ").append(problem);
		}
		return message.toString();
	}
}
