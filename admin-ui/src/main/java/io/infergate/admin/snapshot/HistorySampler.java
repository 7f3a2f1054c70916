package io.infergate.admin.snapshot;

import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.Disposable;
import reactor.core.scheduler.Scheduler;

import org.springframework.context.SmartLifecycle;

/** Takes the {@link EndpointHistory}'s sample at the start of every second while the application runs. */
public final class HistorySampler implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(HistorySampler.class);

	private final EndpointHistory history;

	private final Scheduler scheduler;

	private volatile Disposable task;

	public HistorySampler(EndpointHistory history, Scheduler scheduler) {
		this.history = history;
		this.scheduler = scheduler;
	}

	@Override
	public synchronized void start() {
		if (task == null) {
			long toNextSecond = 1000 - System.currentTimeMillis() % 1000;
			task = scheduler.schedulePeriodically(this::sample, toNextSecond, 1000, TimeUnit.MILLISECONDS);
		}
	}

	private void sample() {
		try {
			history.sample();
		}
		catch (RuntimeException ex) {
			logger.warn("Dashboard history sample failed", ex);
		}
	}

	@Override
	public synchronized void stop() {
		if (task != null) {
			task.dispose();
			task = null;
		}
	}

	@Override
	public boolean isRunning() {
		return task != null;
	}
}
