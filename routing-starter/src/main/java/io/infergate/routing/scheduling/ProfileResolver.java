package io.infergate.routing.scheduling;

/** Finds the scheduling profile a pool names. */
@FunctionalInterface
public interface ProfileResolver {

	/**
	 * The profile called {@code name}, or the default profile when {@code name} is {@code null}.
	 * @throws IllegalArgumentException when no profile has that name
	 */
	SchedulingProfile resolve(String name);
}
