package io.infergate.sim.engine;

import java.util.Arrays;
import java.util.Locale;

/**
 * What a request's {@code priority} means under {@link SchedulingPolicy#PRIORITY}: which engine's sign convention
 * the simulator follows.
 */
public enum PriorityConvention {

	/** vLLM: a lower value is served first (0, the default, before 1). */
	VLLM("vllm"),

	/**
	 * SGLang: a higher value is served first (its default, without {@code --schedule-low-priority-values-first}). The
	 * simulator only orders by the negated value; SGLang's preemption of running requests by a waiting one whose
	 * priority is higher by {@code --priority-scheduling-preemption-threshold} is not modelled.
	 */
	SGLANG("sglang");

	private final String cliName;

	PriorityConvention(String cliName) {
		this.cliName = cliName;
	}

	public String cliName() {
		return this.cliName;
	}

	/** The priority to order by, lowest first: the request's own under vLLM's convention, negated under SGLang's. */
	long effectivePriority(int priority) {
		return (this == SGLANG) ? -(long) priority : priority;
	}

	/** The convention for a command-line name, or an error naming the option and the valid names. */
	public static PriorityConvention fromCliName(String name) {
		for (PriorityConvention convention : values()) {
			if (convention.cliName.equals(name.toLowerCase(Locale.ROOT))) {
				return convention;
			}
		}
		throw new IllegalArgumentException("unknown --priority-convention '" + name + "' (valid: "
				+ String.join(", ", Arrays.stream(values()).map(PriorityConvention::cliName).toList()) + ")");
	}
}
