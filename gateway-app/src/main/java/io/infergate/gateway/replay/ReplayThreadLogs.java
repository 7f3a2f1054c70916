package io.infergate.gateway.replay;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;

/**
 * Keeps the replay thread's INFO and DEBUG lines out of the gateway's log: a replay's engine logs as the gateway's
 * does ("Pool 'bench': endpoint pod-0.bench:8000 added"), which would read as news of the gateway itself. Its
 * warnings and errors still go through.
 */
final class ReplayThreadLogs extends TurboFilter {

	private final Thread replay;

	private ReplayThreadLogs(Thread replay) {
		this.replay = replay;
	}

	/** Installs the filter for {@code replay} when the logging is Logback's; returns what removes it. */
	static Runnable quiet(Thread replay) {
		ILoggerFactory factory = LoggerFactory.getILoggerFactory();
		if (!(factory instanceof LoggerContext context)) {
			return () -> {
			};
		}
		ReplayThreadLogs filter = new ReplayThreadLogs(replay);
		filter.start();
		context.addTurboFilter(filter);
		return () -> context.getTurboFilterList().remove(filter);
	}

	@Override
	public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params,
			Throwable t) {
		return (Thread.currentThread() == replay && level != null && !level.isGreaterOrEqual(Level.WARN))
				? FilterReply.DENY : FilterReply.NEUTRAL;
	}
}
