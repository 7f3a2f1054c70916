package io.infergate.gateway.replay;

import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

import io.infergate.bench.quality.replay.Replay;

/**
 * Keeps a replay's thread to a share of one core: after each {@value #SLICE_MILLIS} ms of work it sleeps so long that
 * work over work and sleep is the share (20 ms of work, then 20 ms of sleep at 0.5). The replay calls it for every
 * request that ends; it also counts them, and stops the replay when asked to.
 */
final class DutyCycle implements Replay.Progress {

	static final long SLICE_MILLIS = 20;

	private final double share;

	private final BooleanSupplier cancelled;

	private final Runnable requestEnded;

	private long sliceStartNanos = System.nanoTime();

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

	/** Sleeps when a slice of work is over; throws {@link CancellationException} once the run is to stop. */
	void pace() {
		if (cancelled.getAsBoolean()) {
			throw new CancellationException("stopped on request");
		}
		long workedNanos = System.nanoTime() - sliceStartNanos;
		if (share >= 1 || workedNanos < SLICE_MILLIS * 1_000_000) {
			return;
		}
		long sleepNanos = (long) (workedNanos * (1 - share) / share);
		try {
			Thread.sleep(sleepNanos / 1_000_000, (int) (sleepNanos % 1_000_000));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new CancellationException("interrupted");
		}
		sliceStartNanos = System.nanoTime();
	}
}
