package io.infergate.admin.runtime;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.infergate.routing.scheduling.SchedulingProfile;
import io.infergate.routing.scheduling.config.SchedulingProfiles;

/**
 * Weight changes the admin applies to a running gateway's profiles from the dashboard, and their audit: who, when,
 * which profile, the weights before and after. Each change is logged at WARN and kept (the latest
 * {@value #KEPT}) for the dashboard; reverting a change applies its weights from before as a new change. Off unless
 * {@code infergate.management.admin.allow-runtime-changes} is true.
 * <p>
 * A change lives as long as the process: a restart starts from the configuration again.
 */
public final class RuntimeChanges {

	static final int KEPT = 100;

	private static final Log logger = LogFactory.getLog(RuntimeChanges.class);

	private final SchedulingProfiles profiles;

	private final boolean enabled;

	private final Clock clock;

	private final Deque<Change> changes = new ArrayDeque<>();

	private long lastId;

	public RuntimeChanges(SchedulingProfiles profiles, boolean enabled, Clock clock) {
		this.profiles = profiles;
		this.enabled = enabled;
		this.clock = clock;
	}

	public boolean enabled() {
		return enabled;
	}

	/**
	 * One applied change.
	 *
	 * @param id increasing from 1 per process
	 * @param time when it was applied
	 * @param by the admin's user name
	 * @param profile the profile changed
	 * @param before its weights before
	 * @param after its weights after
	 * @param reverts the id of the change this one reverts, or null
	 */
	public record Change(long id, Instant time, String by, String profile, Map<String, Double> before,
			Map<String, Double> after, Long reverts) {
	}

	/**
	 * Gives {@code profile} these weights (the others keep theirs).
	 *
	 * @throws IllegalStateException when runtime changes are off
	 * @throws IllegalArgumentException for an unknown profile or scorer, or a bad weight
	 */
	public Change apply(String by, String profile, Map<String, Double> weights) {
		return change(by, profile, weights, null);
	}

	/**
	 * Puts back the weights change {@code id} replaced.
	 *
	 * @throws IllegalStateException when runtime changes are off
	 * @throws NoSuchElementException for a change not kept
	 */
	public Change revert(String by, long id) {
		Change reverted;
		synchronized (this) {
			reverted = changes.stream()
				.filter((change) -> change.id() == id)
				.findFirst()
				.orElseThrow(() -> new NoSuchElementException("no change #" + id + " is kept"));
		}
		return change(by, reverted.profile(), reverted.before(), id);
	}

	/** The kept changes, newest first. */
	public synchronized List<Change> recent() {
		return new ArrayList<>(changes);
	}

	private synchronized Change change(String by, String profileName, Map<String, Double> weights, Long reverts) {
		if (!enabled) {
			throw new IllegalStateException("runtime changes are off: set infergate.management.admin."
					+ "allow-runtime-changes=true to allow them");
		}
		Map<String, Double> before = new LinkedHashMap<>(profiles.get(profileName).weights());
		SchedulingProfile after = profiles.reweigh(profileName, weights);
		Change change = new Change(++lastId, clock.instant(), by, profileName, before,
				new LinkedHashMap<>(after.weights()), reverts);
		changes.addFirst(change);
		while (changes.size() > KEPT) {
			changes.removeLast();
		}
		logger.warn("Runtime change #" + change.id() + " by " + by + ((reverts != null) ? " (reverts #" + reverts + ")" : "")
				+ ": scheduling profile '" + profileName + "' weights " + before + " -> " + change.after());
		return change;
	}
}
