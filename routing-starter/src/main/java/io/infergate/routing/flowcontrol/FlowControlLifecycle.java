package io.infergate.routing.flowcontrol;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;

/**
 * Runs {@link FlowController#sweep()} every {@code sweep-interval} while the application runs, and starts the
 * graceful shutdown: it stops first (the highest phase), before the web server's graceful shutdown, so from then on
 * new requests and those still waiting are answered 503 {@code shutting-down} while the web server lets running
 * responses finish within {@code spring.lifecycle.timeout-per-shutdown-phase}.
 */
public final class FlowControlLifecycle implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(FlowControlLifecycle.class);

	private final FlowController controller;

	private ScheduledExecutorService sweeper;

	public FlowControlLifecycle(FlowController controller) {
		this.controller = controller;
	}

	@Override
	public synchronized void start() {
		long intervalNanos = controller.properties().sweepInterval().toNanos();
		sweeper = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "infergate-flow-control");
			thread.setDaemon(true);
			return thread;
		});
		sweeper.scheduleWithFixedDelay(this::sweep, intervalNanos, intervalNanos, TimeUnit.NANOSECONDS);
	}

	private void sweep() {
		try {
			controller.sweep();
		}
		catch (RuntimeException ex) {
			logger.error("Flow control sweep failed", ex);
		}
	}

	@Override
	public synchronized void stop() {
		if (sweeper == null) {
			return;
		}
		logger.info("Shutting down: no request is admitted any more, waiting requests are answered 503");
		controller.shutDown();
		sweeper.shutdownNow();
		sweeper = null;
	}

	@Override
	public synchronized boolean isRunning() {
		return sweeper != null;
	}

	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE;
	}
}
