package io.infergate.admin.security;

import java.util.List;

/**
 * The management port's security configuration under {@code infergate.management} is invalid. The message lists
 * every problem, each with the property at fault; secrets and hashes are never part of it.
 */
public class ManagementSecurityException extends IllegalStateException {

	public ManagementSecurityException(List<String> problems) {
		super(message(problems));
	}

	private static String message(List<String> problems) {
		StringBuilder message = new StringBuilder("Invalid management security configuration:");
		for (String problem : problems) {
			message.append(System.lineSeparator()).append(" - ").append(problem);
		}
		return message.toString();
	}
}
