package io.infergate.sim.engine;

import java.util.Arrays;
import java.util.Locale;

/**
 * How an engine orders its waiting requests and picks the running request to preempt: vLLM's
 * {@code --scheduling-policy}.
 */
public enum SchedulingPolicy {

	/**
	 * First come, first served (vLLM's default): waiting requests are admitted in arrival order, a preempted request
	 * rejoins the head of the queue, and the most recently admitted running request is preempted first.
	 */
	FCFS("fcfs"),

	/**
	 * By priority: waiting requests are admitted in order of (priority, arrival), and the running request with the
	 * largest (priority, arrival) is preempted first. See {@link PriorityConvention} for what "larger" means.
	 */
	PRIORITY("priority");

	private final String cliName;

	SchedulingPolicy(String cliName) {
		this.cliName = cliName;
	}

	public String cliName() {
		return this.cliName;
	}

	/** The policy for a command-line name, or an error naming the option and the valid names. */
	public static SchedulingPolicy fromCliName(String name) {
		for (SchedulingPolicy policy : values()) {
			if (policy.cliName.equals(name.toLowerCase(Locale.ROOT))) {
				return policy;
			}
		}
		throw new IllegalArgumentException("unknown --scheduling-policy '" + name + "' (valid: "
				+ String.join(", ", Arrays.stream(values()).map(SchedulingPolicy::cliName).toList()) + ")");
	}
}
