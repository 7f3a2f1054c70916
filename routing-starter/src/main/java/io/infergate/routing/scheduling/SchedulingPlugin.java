package io.infergate.routing.scheduling;

/**
 * A filter, scorer or picker. Plugins are Spring beans; a profile names them in YAML by {@link #name()}. Plugins
 * never call each other: the {@link Scheduler} composes them.
 */
public interface SchedulingPlugin {

	/** The plugin's key in {@code infergate.scheduling.profiles.*}, e.g. {@code queue} or {@code max-score}. */
	String name();
}
