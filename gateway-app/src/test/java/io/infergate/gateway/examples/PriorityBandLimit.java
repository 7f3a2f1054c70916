package io.infergate.gateway.examples;

import org.springframework.stereotype.Component;

import io.infergate.routing.limits.Caller;
import io.infergate.routing.limits.LimitType;

/**
 * The example limit type of {@code docs/architecture.md}: one bucket per priority band, shared by every caller in
 * it, so sheddable traffic as a whole can be held to its own rate: {@code sheddable} below priority 0,
 * {@code standard} at 0, {@code critical} above.
 */
@Component
public class PriorityBandLimit implements LimitType {

	@Override
	public String name() {
		return "priority-band";
	}

	@Override
	public String subject(Caller caller, String model) {
		if (caller.priority() < 0) {
			return "sheddable";
		}
		return (caller.priority() == 0) ? "standard" : "critical";
	}
}
