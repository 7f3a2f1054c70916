package io.infergate.bench.quality.replay;

import java.util.Set;

/**
 * What a replay routes with: a scheduling profile, and whether the gateway replicas share their dispatches
 * ({@code PROFILE+dispatch-sharing}: each replica's prefix index also records what the others dispatched, as
 * {@code infergate.scheduling.dispatch-sharing} does over Redis, here through an in-process channel with a propagation
 * delay in virtual time).
 *
 * @param name as given on the command line and written in results
 * @param profile the scheduling profile every replica runs
 * @param dispatchSharing whether replicas share their dispatches
 */
public record Policy(String name, String profile, boolean dispatchSharing) {

	public static final String DISPATCH_SHARING = "+dispatch-sharing";

	public static Policy parse(String name) {
		if (name.endsWith(DISPATCH_SHARING)) {
			return new Policy(name, name.substring(0, name.length() - DISPATCH_SHARING.length()), true);
		}
		return new Policy(name, name, false);
	}

	/** Whether the profile is one of {@code profiles}. */
	public boolean isKnown(Set<String> profiles) {
		return profiles.contains(profile);
	}
}
