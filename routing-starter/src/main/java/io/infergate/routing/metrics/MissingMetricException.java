package io.infergate.routing.metrics;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A scrape lacked a required signal, so its endpoint must not be routed on guessed figures. Thrown on the scrape
 * path at up to the scrape rate, so it carries no stack trace.
 */
@SuppressWarnings("serial")
public final class MissingMetricException extends RuntimeException {

	private final EngineSignal signal;

	public MissingMetricException(EngineSignal signal, List<MetricSource> sources) {
		super("no sample for " + signal.key() + " (looked for "
				+ sources.stream().map(MetricSource::toString).collect(Collectors.joining(", then ")) + ")", null,
				false, false);
		this.signal = signal;
	}

	public EngineSignal signal() {
		return signal;
	}
}
