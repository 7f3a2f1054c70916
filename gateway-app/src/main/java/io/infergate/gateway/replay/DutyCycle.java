package io.infergate.gateway.replay;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

import io.infergate.bench.quality.replay.Replay;

/**
 * Keeps a replay to a share of one core: every {@value #SLICE_MILLIS} ms it adds up the CPU time the threads of the
 * replay's thread group used since the last check (the run's thread, and those it starts, such as the bench's
 * request builder) and sleeps so long that CPU time over wall time is the share (at 0.5, 20 ms of one busy thread
 * is followed by 20 ms of sleep). Where the JVM cannot measure a thread's CPU time, the run's wall time stands for it.
 * The replay calls it for every request that ends; it also counts them, and stops the replay when asked to.
 */
final class DutyCycle implements Replay.Progress {

	static final long SLICE_MILLIS = 20;

	private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	private final double share;

	private final BooleanSupplier cancelled;

	private final Runnable requestEnded;

	private final boolean measuresCpu = THREADS.isThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();

	private long checkedAtNanos = System.nanoTime();

	private long cpuNanos = -1;

	/**
	 * @param share of one core, in (0, 1]
	 * @param cancelled asked at every call; true stops the replay with a {@link CancellationException}
	 * @param requestEnded told of every request that ends
	 */
	DutyCycle(double share, BooleanSupplier cancelled, Runnable requestEnded) {
		this.share = share;
		this.cancelled = cancelled;
		this.requestEnded = requestEnded;
	}

	@Override
	public void requestEnded() {
		requestEnded.run();
		pace();
	}

	/** Sleeps when a slice is over; throws {@link CancellationException} once the run is to stop. */
	void pace() {
		if (cancelled.getAsBoolean()) {
			throw new CancellationException("stopped on request");
		}
		long now = System.nanoTime();
		long elapsedNanos = now - checkedAtNanos;
		if (share >= 1 || elapsedNanos < SLICE_MILLIS * 1_000_000) {
			return;
		}
		long cpu = groupCpuNanos();
		long usedNanos = (cpuNanos < 0 || cpu < 0) ? elapsedNanos : cpu - cpuNanos;
		long sleepNanos = (long) (usedNanos / share) - elapsedNanos;
		if (sleepNanos > 0) {
			try {
				Thread.sleep(sleepNanos / 1_000_000, (int) (sleepNanos % 1_000_000));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new CancellationException("interrupted");
			}
		}
		checkedAtNanos = System.nanoTime();
		cpuNanos = groupCpuNanos();
	}

	/** The CPU time of the live threads of this thread's group, or -1 when it cannot be measured. */
	private long groupCpuNanos() {
		if (!measuresCpu) {
			return -1;
		}
		ThreadGroup group = Thread.currentThread().getThreadGroup();
		Thread[] threads = new Thread[group.activeCount() + 4];
		int count = group.enumerate(threads, false);
		long total = 0;
		for (int i = 0; i < count; i++) {
			long nanos = THREADS.getThreadCpuTime(threads[i].getId());
			if (nanos > 0) {
				total += nanos;
			}
		}
		return total;
	}
}
