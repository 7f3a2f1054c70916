package io.infergate.gateway.replay;

import java.lang.management.ManagementFactory;
import java.util.concurrent.CancellationException;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

import com.sun.management.OperatingSystemMXBean;

import io.infergate.bench.quality.replay.Replay;

/**
 * Keeps a replay to a share of one core: every {@value #SLICE_MILLIS} ms it reads the CPU time the replay's process
 * used since the last check (its threads, the JIT compiler's and the garbage collector's alike) and sleeps so long
 * that CPU time over wall time is the share (at 0.5, 20 ms of one busy core is followed by 20 ms of sleep). Where
 * the JVM cannot measure its CPU time, the run's wall time stands for it. Every {@value #LOAD_MILLIS} ms it also
 * asks how busy the machine is with everything else ({@link MachineLoad}) and, while that is above the share it
 * yields to, waits in steps of {@value #LOAD_MILLIS} ms: a replay runs on what the gateway leaves idle. The replay
 * calls it for every request that ends; it also counts them.
 */
final class DutyCycle implements Replay.Progress {

	static final long SLICE_MILLIS = 20;

	static final long LOAD_MILLIS = 200;

	private final double share;

	private final double yieldAbove;

	private final DoubleSupplier othersBusy;

	private long loadCheckedAtNanos = System.nanoTime();

	private final LongSupplier cpuNanos;

	private final Runnable requestEnded;

	private long checkedAtNanos = System.nanoTime();

	private long cpuAtCheck = -1;

	/**
	 * @param share of one core, in (0, 1]
	 * @param yieldAbove the share of all processors' time others may use before the replay waits, in [0, 1]; 1
	 * never waits
	 * @param othersBusy how busy the machine is with others since the last call ({@link MachineLoad#othersBusy()})
	 * @param cpuNanos the CPU time used so far, or -1 where it cannot be measured
	 * @param requestEnded told of every request that ends
	 */
	DutyCycle(double share, double yieldAbove, DoubleSupplier othersBusy, LongSupplier cpuNanos,
			Runnable requestEnded) {
		this.share = share;
		this.yieldAbove = yieldAbove;
		this.othersBusy = othersBusy;
		this.cpuNanos = cpuNanos;
		this.requestEnded = requestEnded;
	}

	/** The CPU time of this process, or -1 where the JVM does not tell it. */
	static long processCpuNanos() {
		return (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os)
				? os.getProcessCpuTime() : -1;
	}

	@Override
	public void requestEnded() {
		requestEnded.run();
		pace();
	}

	/** Sleeps when a slice is over, and waits while the machine is busy with others. */
	void pace() {
		long now = System.nanoTime();
		long elapsedNanos = now - checkedAtNanos;
		if (elapsedNanos < SLICE_MILLIS * 1_000_000) {
			return;
		}
		if (share < 1) {
			long cpu = cpuNanos.getAsLong();
			long usedNanos = (cpuAtCheck < 0 || cpu < 0) ? elapsedNanos : cpu - cpuAtCheck;
			sleep((long) (usedNanos / share) - elapsedNanos);
		}
		if (yieldAbove < 1 && System.nanoTime() - loadCheckedAtNanos >= LOAD_MILLIS * 1_000_000) {
			while (othersBusy.getAsDouble() > yieldAbove) {
				sleep(LOAD_MILLIS * 1_000_000);
			}
			loadCheckedAtNanos = System.nanoTime();
		}
		checkedAtNanos = System.nanoTime();
		cpuAtCheck = cpuNanos.getAsLong();
	}

	private static void sleep(long nanos) {
		if (nanos <= 0) {
			return;
		}
		try {
			Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new CancellationException("interrupted");
		}
	}
}
