package io.infergate.routing.config;

import java.util.Collection;
import java.util.List;

/**
 * The configuration names something that does not exist, or holds values that cannot work. The message lists every
 * problem found, each with the property at fault; {@link #action()} says how to fix them.
 */
public class InvalidConfigurationException extends IllegalStateException {

	private final List<String> problems;

	private final String action;

	public InvalidConfigurationException(List<String> problems) {
		this("Invalid configuration", problems, "Fix the properties named above. A name must match a configured "
				+ "pool, model or scheduling profile; the valid names are listed with each problem. An API key is "
				+ "configured by the SHA-256 of its secret, as 64 hex digits: 'java -jar gateway-app.jar "
				+ "hash-api-key' prints it. Limits are 0 (unlimited) or more.");
	}

	/**
	 * @param title what is invalid, the first line of the message
	 * @param action how to fix the problems
	 */
	protected InvalidConfigurationException(String title, List<String> problems, String action) {
		super(message(title, problems));
		this.problems = List.copyOf(problems);
		this.action = action;
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

	/** How to fix them. */
	public String action() {
		return action;
	}

	private static String message(String title, List<String> problems) {
		StringBuilder message = new StringBuilder(title).append(':');
		for (String problem : problems) {
			message.append(System.lineSeparator()).append(" - ").append(problem);
		}
		return message.toString();
	}
}
